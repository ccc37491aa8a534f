import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import S3rver from 's3rver';

/**
 * s3rver 3.7.1 in this process, with its filesystem store (reference/local-emulators.md C). Clients
 * must use s3ClientConfig() (lib/storage/clients.ts): path style, key id S3RVER, and checksums only
 * when required, without which s3rver silently stores stream bodies with their aws-chunked framing.
 */

export interface S3LocalOptions {
  /** Where objects are stored: under the data dir for npm start, a temporary directory for tests. */
  readonly directory: string;
  /** Fixed port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Buckets created at start if missing. */
  readonly buckets?: readonly string[];
}

export interface S3Local {
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function startS3Local(options: S3LocalOptions): Promise<S3Local> {
  const directory = resolve(options.directory);
  await mkdir(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory,
    silent: true,
    configureBuckets: (options.buckets ?? []).map((name) => ({ name })),
  });
  const { port } = await server.run();
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stop: () => {
      stopped ??= server.close();
      return stopped;
    },
  };
}
