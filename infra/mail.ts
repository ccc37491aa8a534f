import { CfnOutput, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as ses from 'aws-cdk-lib/aws-ses';
import type { Construct } from 'constructs';

/**
 * Mail in AWS (CONTRACT 14): an SES identity the deploy names (context `sesIdentity`, a domain or an
 * address; `sesConfigurationSet` optionally), created by the stack, and the one grant a function that
 * sends needs. The SMTP settings are then not read (lib/mail/transport.ts).
 */

export interface MailSettings {
  /** A domain (`example.com`, verified by the DKIM records the stack outputs) or an address. */
  readonly identity: string;
  /** An existing SES configuration set the mail goes through (event publishing, a dedicated IP pool). */
  readonly configurationSet?: string | undefined;
}

export class MailSender {
  readonly identity: ses.EmailIdentity;
  private readonly resources: string[];

  constructor(
    scope: Construct,
    id: string,
    private readonly settings: MailSettings,
  ) {
    const { identity, configurationSet } = settings;
    this.identity = new ses.EmailIdentity(scope, id, {
      identity: identity.includes('@') ? ses.Identity.email(identity) : ses.Identity.domain(identity),
    });
    const stack = Stack.of(scope);
    this.resources = [
      this.identity.emailIdentityArn,
      ...(configurationSet
        ? [stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: configurationSet })]
        : []),
    ];
    new CfnOutput(scope, `${id}Name`, { value: this.identity.emailIdentityName });
    if (!identity.includes('@')) {
      this.identity.dkimRecords.forEach((record, index) => {
        new CfnOutput(scope, `${id}DkimRecord${index + 1}`, {
          description: 'A CNAME record to add to the domain, for SES to verify it and sign its mail (DKIM)',
          value: `${record.name} CNAME ${record.value}`,
        });
      });
    }
  }

  /**
   * Lets `fn` send as the identity (SESv2 SendEmail, simple content: `ses:SendEmail` on the identity and
   * the configuration set, nothing else) and tells it so, in one call: the grant and the environment
   * variables that make lib/mail/transport.ts use SES cannot drift apart.
   */
  allowSending(fn: lambda.Function): void {
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['ses:SendEmail'], resources: this.resources }));
    fn.addEnvironment('KIROKU_MAIL_SES_IDENTITY', this.settings.identity);
    if (this.settings.configurationSet) {
      fn.addEnvironment('KIROKU_MAIL_SES_CONFIGURATION_SET', this.settings.configurationSet);
    }
  }
}
