import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_BYTES } from '../../local/gateway';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Issue 10, defect 10: the 413 for a body over 6 MB must reach a client that is still sending. Raw sockets,
 * so that a connection reset shows as such instead of being retried or hidden by an HTTP client.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

interface Outcome {
  readonly answer: string;
  readonly error?: string;
}

/**
 * Sends `size` bytes of body as fast as the socket takes them and only then reads, as a simple client does
 * (curl, most SDKs): an answer that a reset overtook is lost. What came back, and any socket error.
 */
function oversizePost(size: number, framing: 'length' | 'chunked'): Promise<Outcome> {
  const { hostname, port, pathname } = new URL(`${stack.url}/api/items/1/get`);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let error: string | undefined;
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        const framed = framing === 'chunked' ? [`${part.length.toString(16)}\r\n`, part, '\r\n'] : [part];
        const last = sent >= size && framing === 'chunked' ? ['0\r\n\r\n'] : [];
        let more = true;
        for (const piece of [...framed, ...last]) more = socket.write(piece);
        if (!more) return socket.once('drain', pump);
      }
      socket.resume();
    };
    socket.pause();
    socket.on('connect', () => {
      const length = framing === 'length' ? `Content-Length: ${size}` : 'Transfer-Encoding: chunked';
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`,
      );
      pump();
    });
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', (cause: NodeJS.ErrnoException) => {
      error = cause.code ?? cause.message;
      socket.resume();
    });
    socket.on('close', () => resolve({ answer: Buffer.concat(received).toString(), error }));
  });
}

describe('local gateway: 413 for a body over 6 MB', () => {
  it.each(['length', 'chunked'] as const)(
    'reaches each of 24 concurrent clients still sending (%s framing)',
    async (framing) => {
      const outcomes = await Promise.all(
        Array.from({ length: 24 }, () => oversizePost(MAX_EVENT_BYTES + 2 * 1024 * 1024, framing)),
      );
      for (const outcome of outcomes) {
        expect(outcome.answer, outcome.error).toMatch(/^HTTP\/1\.1 413 /);
        expect(outcome.answer.toLowerCase()).toContain('connection: close');
        expect(outcome.answer).toContain('{"Id":0,"StatusCode":413,"Message":"The request is too large."}');
      }
    },
    60_000,
  );
});
