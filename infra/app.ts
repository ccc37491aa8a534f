import { App } from 'aws-cdk-lib';
import { SettingsError } from '../lib/config/settings';
import { settingOverrides } from './deploy-settings';
import { KirokuStack } from './kiroku-stack';

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
  });
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(`Kiroku settings: ${error.message}`);
  process.exit(1);
}

app.synth();
