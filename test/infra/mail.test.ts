import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addChecks } from '../../infra/checks';
import { KirokuStack } from '../../infra/kiroku-stack';
import { defaultOperations, operationsFromContext } from '../../infra/operations';
import { type Route, routes } from '../../lib/routes';
import { streamSubscriptions } from '../../lib/streams';
import { appWithProjectContext, SYNTH_TIMEOUT_MS } from './synth';

/**
 * Mail in AWS (infra/mail.ts): the SES identity the deploy names, and `ses:SendEmail` on it (and nothing
 * else) for exactly the functions that send, with the variable that makes them use SES. Bundling is
 * skipped: the grants and the environment do not depend on the code.
 */

interface Statement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}
type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

const sending = [
  ...(routes as readonly Route[]).filter((route) => route.mail).map((route) => route.handler),
  ...streamSubscriptions
    .filter((subscription) => subscription.mail)
    .map((subscription) => subscription.handler),
];

function synth(mail?: { identity: string; configurationSet?: string }) {
  const app = appWithProjectContext({
    'aws:cdk:bundling-stacks': [],
    '@aws-cdk/core:failSynthOnValidationErrors': false,
  });
  const stack = new KirokuStack(app, mail ? 'MailStack' : 'PlainStack', {
    operations: { ...defaultOperations, mail },
  });
  addChecks(app);
  const assembly = app.synth();
  const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as {
    pluginReports?: { violations?: { ruleName: string }[] }[];
  };
  const all = [stack, ...stack.groups].map(
    (each) => Template.fromStack(each).toJSON().Resources as Resources,
  );
  return {
    stack,
    resources: Object.assign({}, ...all) as Resources,
    findings: (report.pluginReports ?? []).flatMap((plugin) =>
      (plugin.violations ?? []).map((v) => v.ruleName),
    ),
    files: [stack, ...stack.groups].map((each) => join(assembly.directory, each.templateFile)),
  };
}

const ofType = (resources: Resources, type: string) =>
  Object.values(resources).filter((resource) => resource.Type === type);
const sesStatements = (resources: Resources) =>
  ofType(resources, 'AWS::IAM::Policy')
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
    .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ses:')));
const withSesVariable = (resources: Resources) =>
  ofType(resources, 'AWS::Lambda::Function').filter((fn) =>
    JSON.stringify(fn.Properties.Environment ?? {}).includes('KIROKU_MAIL_SES_IDENTITY'),
  );

let withMail: ReturnType<typeof synth>;
let without: ReturnType<typeof synth>;

beforeAll(() => {
  withMail = synth({ identity: 'example.com', configurationSet: 'kiroku' });
  without = synth();
}, SYNTH_TIMEOUT_MS);

describe('infra/mail', () => {
  it('lists OutgoingMails/Send among the functions that send', () => {
    expect(sending).toContain('outgoingmails-send');
  });

  describe('with an SES identity', () => {
    it('creates the identity the deploy names', () => {
      const identities = ofType(withMail.resources, 'AWS::SES::EmailIdentity');
      expect(identities.map((identity) => identity.Properties.EmailIdentity)).toEqual(['example.com']);
    });

    it('gives exactly the sending functions ses:SendEmail on the identity and configuration set, no wildcard', () => {
      const statements = sesStatements(withMail.resources);
      expect(statements).toHaveLength(sending.length);
      for (const statement of statements) {
        expect([statement.Action].flat()).toEqual(['ses:SendEmail']);
        const text = JSON.stringify(statement.Resource);
        expect(text).toContain(':identity/');
        expect(text).toContain(':configuration-set/kiroku');
        expect(text).not.toContain('"*"');
      }
    });

    it('tells exactly those functions to send through SES', () => {
      const functions = withSesVariable(withMail.resources);
      expect(functions).toHaveLength(sending.length);
      for (const fn of functions) {
        expect(fn.Properties.Environment).toMatchObject({
          Variables: { KIROKU_MAIL_SES_IDENTITY: 'example.com', KIROKU_MAIL_SES_CONFIGURATION_SET: 'kiroku' },
        });
      }
    });

    it('passes cdk-nag', () => {
      expect(withMail.findings).toEqual([]);
    });

    describe.skipIf(spawnSync('cfn-lint', ['--version']).status !== 0)('cfn-lint', () => {
      it('finds nothing in the templates', () => {
        const run = spawnSync('cfn-lint', withMail.files, { encoding: 'utf8' });
        expect(`${run.stdout}${run.stderr}`).toBe('');
        expect(run.status).toBe(0);
      }, 300_000);
    });
  });

  it('without one, has no identity, no SES grant and no SES variable: mail goes through Mail.SmtpHost', () => {
    expect(ofType(without.resources, 'AWS::SES::EmailIdentity')).toEqual([]);
    expect(sesStatements(without.resources)).toEqual([]);
    expect(withSesVariable(without.resources)).toEqual([]);
  });

  describe('operationsFromContext', () => {
    it.each([
      [{ sesIdentity: 'example.com' }, { identity: 'example.com', configurationSet: undefined }],
      [
        { sesIdentity: 'mail@example.com', sesConfigurationSet: 'kiroku' },
        { identity: 'mail@example.com', configurationSet: 'kiroku' },
      ],
      [{}, undefined],
    ])('reads %j', (context, mail) => {
      expect(operationsFromContext(context).mail).toEqual(mail);
    });

    it.each([
      [
        { sesIdentity: 'not a domain' },
        'context sesIdentity: must be a domain (example.com) or a mail address',
      ],
      [{ sesIdentity: 'example.com', sesConfigurationSet: 'a b' }, 'context sesConfigurationSet: must be'],
      [{ sesConfigurationSet: 'kiroku' }, 'context sesConfigurationSet: needs sesIdentity'],
    ])('refuses %j', (context, message) => {
      expect(() => operationsFromContext(context)).toThrow(message);
    });
  });
});
