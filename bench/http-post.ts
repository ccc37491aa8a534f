import { type Agent, request } from 'node:http';

/** A lean keep-alive HTTP client for the load loop: node:http costs the load generator less than fetch. */

export interface Answer {
  readonly status: number;
  readonly body: string;
  /** `name=value` of each Set-Cookie. */
  readonly cookies: string[];
}

export function post(agent: Agent, url: string, body: unknown, cookie?: string): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolveAnswer, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(cookie && { cookie }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolveAnswer({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            cookies: (response.headers['set-cookie'] ?? []).map((value) => value.split(';')[0] as string),
          }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url} in 30 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}
