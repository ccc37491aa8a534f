import { App } from 'aws-cdk-lib';
import { SettingsError } from '../lib/config/settings';
import { addChecks } from './checks';
import { settingOverrides } from './deploy-settings';
import { KirokuStack } from './kiroku-stack';
import { operationsFromContext } from './operations';

const app = new App();
const parameters: unknown = app.node.tryGetContext('parameters');
if (parameters !== undefined && typeof parameters !== 'string') {
  throw new Error('Context "parameters" must be the path of a settings file');
}

try {
  // No env: the stack is environment-agnostic, so synth needs no credentials and makes no lookups.
  new KirokuStack(app, 'KirokuStack', {
    description: 'Kiroku: record management with the Pleasanter-compatible Web API',
    settings: { parametersFile: parameters, overrides: settingOverrides(process.env) },
    operations: operationsFromContext({
      reservedConcurrency: app.node.tryGetContext('reservedConcurrency'),
      alarmTopicArn: app.node.tryGetContext('alarmTopicArn'),
      fileAccessLogging: app.node.tryGetContext('fileAccessLogging'),
      sesIdentity: app.node.tryGetContext('sesIdentity'),
      sesConfigurationSet: app.node.tryGetContext('sesConfigurationSet'),
    }),
  });
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(`Kiroku settings: ${error.message}`);
  process.exit(1);
}

// cdk-nag on every synth: a new finding fails it (infra/checks.ts).
addChecks(app);
app.synth();
