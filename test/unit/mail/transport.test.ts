import { SESv2Client, type SendEmailCommand } from '@aws-sdk/client-sesv2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSettings, useSettings } from '../../../lib/config/settings';
import { MailServiceError } from '../../../lib/mail/errors';
import { defaultSender, type OutgoingMail, transmit } from '../../../lib/mail/transport';

/**
 * The SES path of lib/mail/transport.ts. There is no SES emulator: the client's `send` is replaced to see
 * the request it would make, and to make it fail. (The SMTP path is tested against a real server in
 * test/integration/outgoing-mails.test.ts.)
 */

const env = { KIROKU_MAIL_SES_IDENTITY: 'example.com', KIROKU_MAIL_SES_CONFIGURATION_SET: 'kiroku' };
const mail: OutgoingMail = {
  from: { name: '受付', address: 'desk@example.com' },
  to: [{ name: 'Taro "T" Yamada', address: 'taro@example.com' }],
  cc: [{ address: 'cc@example.com' }],
  bcc: [{ address: 'hidden@example.com' }],
  subject: '見積書の送付',
  text: '本文です。',
  attachments: [{ name: '見積書.pdf', contentType: 'application/pdf', content: new Uint8Array([1, 2, 3]) }],
};

afterEach(() => {
  vi.restoreAllMocks();
  useSettings(undefined);
});

describe('lib/mail/transport', () => {
  describe('transmit through SES', () => {
    it('sends simple UTF-8 content with its attachments, names encoded, as the configuration set', async () => {
      const send = vi
        .spyOn(SESv2Client.prototype, 'send')
        .mockImplementation(async () => ({ MessageId: 'ses-1' }) as never);
      expect(await transmit(mail, env)).toBe('ses-1');
      const command = send.mock.calls[0]?.[0] as SendEmailCommand;
      expect(command.input).toEqual({
        FromEmailAddress: `=?UTF-8?B?${Buffer.from('受付').toString('base64')}?= <desk@example.com>`,
        Destination: {
          ToAddresses: ['"Taro \\"T\\" Yamada" <taro@example.com>'],
          CcAddresses: ['cc@example.com'],
          BccAddresses: ['hidden@example.com'],
        },
        ConfigurationSetName: 'kiroku',
        Content: {
          Simple: {
            Subject: { Data: '見積書の送付', Charset: 'UTF-8' },
            Body: { Text: { Data: '本文です。', Charset: 'UTF-8' } },
            Attachments: [
              {
                FileName: '見積書.pdf',
                ContentType: 'application/pdf',
                RawContent: new Uint8Array([1, 2, 3]),
              },
            ],
          },
        },
      });
    });

    it('turns a refusal into a MailServiceError naming SES and its reason', async () => {
      vi.spyOn(SESv2Client.prototype, 'send').mockImplementation(async () => {
        throw Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' });
      });
      const failure = transmit(mail, env);
      await expect(failure).rejects.toBeInstanceOf(MailServiceError);
      await expect(failure).rejects.toThrow(
        'The mail could not be sent: Amazon SES refused the mail (MessageRejected): Email address is not verified.',
      );
    });
  });

  describe('defaultSender', () => {
    it.each([
      [{}, { KIROKU_MAIL_SES_IDENTITY: 'example.com' }, 'no-reply@example.com'],
      [{}, { KIROKU_MAIL_SES_IDENTITY: 'mail@example.com' }, 'mail@example.com'],
      [
        { KIROKU_PARAM_Mail_From: 'desk@example.com' },
        { KIROKU_MAIL_SES_IDENTITY: 'example.com' },
        'desk@example.com',
      ],
      [{}, {}, undefined],
    ])('with settings %j and %j: %s', (parameters, environment, expected) => {
      useSettings(loadSettings(parameters));
      expect(defaultSender(environment)).toBe(expected);
    });
  });
});
