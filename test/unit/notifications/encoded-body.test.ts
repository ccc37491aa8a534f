import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { encodedBody } from '../../../lib/notifications/deliver';

/** An HttpClient notice's body goes out in the charset its `Encoding` put in the Content-Type. */
describe('encodedBody', () => {
  it.each([
    ['application/json; charset=utf-8', '{"t":"髙橋①"}', Buffer.from('{"t":"髙橋①"}', 'utf8')],
    ['text/plain; charset=shift_jis', '髙橋①', iconv.encode('髙橋①', 'shift_jis')],
    ['text/plain; charset="Shift_JIS"', '見積', iconv.encode('見積', 'shift_jis')],
    ['text/plain; charset=utf-16le', 'ab', Buffer.from('ab', 'utf16le')],
    ['application/json', 'é', Buffer.from('é', 'utf8')],
    ['text/plain; charset=no-such-charset', 'é', Buffer.from('é', 'utf8')],
  ])('%s', (contentType, body, bytes) => {
    expect(encodedBody({ contentType, body })).toEqual(bytes);
  });
});
