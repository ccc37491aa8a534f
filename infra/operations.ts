import * as logs from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';
import { SettingsError } from '../lib/config/settings';
import type { StageSettings } from './api-stage';
import type { MailSettings } from './mail';

/**
 * How the deploy runs Kiroku in its account, as opposed to how Kiroku behaves (lib/config/settings.ts):
 * given as CDK context (`cdk deploy -c reservedConcurrency=20 -c alarmTopicArn=arn:aws:sns:…`), each with a
 * default that suits a production account.
 */
export interface Operations {
  /** Reserved concurrency of each API and stream function; undefined: none (the account's pool). */
  readonly reservedConcurrency: number | undefined;
  /** An SNS topic the alarms notify; none: the alarms only show in CloudWatch. */
  readonly alarmTopicArn: string | undefined;
  /** Who read or wrote which file: S3 server access logs to a log bucket, or CloudTrail data events. */
  readonly fileAccessLogging: 'server-access-logs' | 'cloudtrail';
  readonly stage: StageSettings;
  /** The SES identity mail goes out as (infra/mail.ts); none: no SES, mail only through `Mail.SmtpHost`. */
  readonly mail?: MailSettings | undefined;
}

/** The login route's own limit: a few attempts a second for the whole API, far below the default. */
export const LOGIN_ROUTE = 'POST /users/authenticate';

export const defaultOperations: Operations = {
  // 50-odd functions × 10 leaves the account's default 1,000 enough unreserved concurrency; one route can
  // then never starve the others, nor a flood run up the bill without bound.
  reservedConcurrency: 10,
  alarmTopicArn: undefined,
  fileAccessLogging: 'server-access-logs',
  stage: {
    throttle: { rateLimit: 200, burstLimit: 400 },
    routeThrottles: { [LOGIN_ROUTE]: { rateLimit: 2, burstLimit: 5 } },
    logRetention: logs.RetentionDays.THREE_MONTHS,
  },
};

const contextSchema = z.object({
  // 'none' gives every function the account's unreserved pool (an account whose limit is too low to reserve).
  reservedConcurrency: z.union([z.literal('none'), z.coerce.number().int().min(1).max(1000)]).optional(),
  alarmTopicArn: z
    .string()
    .regex(/^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]+$/, 'must be the ARN of an SNS topic')
    .optional(),
  fileAccessLogging: z.enum(['server-access-logs', 'cloudtrail']).optional(),
  sesIdentity: z
    .string()
    .regex(
      /^([^@\s]+@)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/,
      'must be a domain (example.com) or a mail address',
    )
    .optional(),
  sesConfigurationSet: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be the name of an SES configuration set')
    .optional(),
});

/** The operations of a deploy from its CDK context values (strings from -c, or JSON from cdk.json). */
export function operationsFromContext(context: Readonly<Record<string, unknown>>): Operations {
  const parsed = contextSchema.safeParse(context);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SettingsError(`context ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const { reservedConcurrency, alarmTopicArn, fileAccessLogging, sesIdentity, sesConfigurationSet } =
    parsed.data;
  if (sesConfigurationSet && !sesIdentity) {
    throw new SettingsError(
      'context sesConfigurationSet: needs sesIdentity, the identity the mail goes out as',
    );
  }
  return {
    ...defaultOperations,
    ...(reservedConcurrency !== undefined && {
      reservedConcurrency: reservedConcurrency === 'none' ? undefined : reservedConcurrency,
    }),
    alarmTopicArn,
    fileAccessLogging: fileAccessLogging ?? defaultOperations.fileAccessLogging,
    mail: sesIdentity ? { identity: sesIdentity, configurationSet: sesConfigurationSet } : undefined,
  };
}
