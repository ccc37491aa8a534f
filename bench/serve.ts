import { startGateway } from '../local/gateway';

/**
 * The local gateway alone, in a process of its own, for the sessions benchmark: the load generator
 * then does not share an event loop with the handlers it measures. The parent passes the emulator
 * endpoints and table names in the environment, exactly as npm start sets them for its handlers.
 */

const gateway = await startGateway({ port: 0, host: '127.0.0.1', basePath: '' });
console.log(`bench gateway listening on ${gateway.url}`);

process.once('SIGTERM', () => {
  void gateway.close().finally(() => process.exit(0));
});
