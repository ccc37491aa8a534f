import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { logger } from '../lib/log';

/**
 * Runs once after each deployment (a CDK trigger): on the first, it creates tenant 1 and `Administrator`
 * (CONTRACT section 7) with the password CloudFormation generated into the secret, and adds the new API key
 * to that secret, where the operator reads them. Later runs find the administrator and change nothing.
 */
const secrets = new SecretsManagerClient({});

export async function handler(): Promise<{ created: boolean }> {
  const secretId = process.env.KIROKU_ADMIN_SECRET_ARN;
  if (!secretId) throw new Error('KIROKU_ADMIN_SECRET_ARN is not set');
  const current = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
  const credentials = JSON.parse(current.SecretString ?? '{}') as Record<string, string>;
  const result = await bootstrapAdministrator({ password: credentials.Password });
  if (result.created) {
    await secrets.send(
      new PutSecretValueCommand({
        SecretId: secretId,
        SecretString: JSON.stringify({ ...credentials, LoginId: result.loginId, ApiKey: result.apiKey }),
      }),
    );
  }
  logger.info('bootstrap', { created: result.created });
  return { created: result.created };
}
