import { describe, expect, it } from 'vitest';
import { dynamo } from '../../../lib/storage/clients';
import { md5, patternBytes, rangeOf, uploadFile, uploadInChunks } from '../../fixtures/binaries';
import {
  download,
  hasItemWith,
  type Input,
  injectFault,
  uploadUrl,
  useBinariesStack,
  watchParts,
  writer,
} from '../../fixtures/binaries-suite';

useBinariesStack();

describe('storage in S3 multipart uploads', () => {
  const MiB = 1024 * 1024;

  it('stores a file of several parts, not a multiple of 5 MiB, byte-exact, with no non-final part under 5 MiB', async () => {
    const parts = watchParts();
    try {
      const bytes = patternBytes(13 * MiB + 321, 7);
      const answers = await uploadInChunks(uploadUrl(), writer.apiKey, 'big.bin', bytes, 4 * MiB, {
        FileHash: md5(bytes),
      });
      const guid = String(answers[0]?.body.Message);
      expect(answers.map((answer) => answer.body.Message)).toEqual(answers.map(() => guid));
      expect(answers.slice(0, -1).map((answer) => answer.body.Id)).toEqual([0, 0, 0]);
      expect(Number(answers.at(-1)?.body.Id)).toBeGreaterThan(0);

      const file = await download(guid, writer.apiKey);
      expect(file.bytes?.length).toBe(bytes.length);
      expect(file.bytes?.equals(bytes)).toBe(true);
      // 4 MiB held; 8 MiB → part 1; 4 MiB held; 4 MiB + 321 bytes → part 2, the last.
      expect(parts.sizes).toEqual([8 * MiB, 5 * MiB + 321]);
      for (const size of parts.sizes.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(5 * MiB);
    } finally {
      parts.stop();
    }
  });

  it('ends a small chunked file as one plain object', async () => {
    const parts = watchParts();
    try {
      const bytes = patternBytes(3 * MiB, 9);
      const answers = await uploadInChunks(uploadUrl(), writer.apiKey, 'small.bin', bytes, MiB);
      expect(parts.sizes).toEqual([]);
      expect((await download(String(answers[0]?.body.Message), writer.apiKey)).bytes?.equals(bytes)).toBe(
        true,
      );
    } finally {
      parts.stop();
    }
  });

  it('lets only one of concurrent copies of a chunk advance the upload', async () => {
    const bytes = patternBytes(6 * MiB + 5, 11);
    const name = 'copies.bin';
    const send = (from: number, length: number) =>
      uploadFile(uploadUrl(), writer.apiKey, {
        fileName: name,
        bytes: bytes.subarray(from, from + length),
        contentRange: rangeOf(from, length, bytes.length),
      });
    const first = await send(0, 2 * MiB);
    const guid = String(first.body.Message);
    // Copies of the second chunk (held bytes), then of the third (the first part), at once.
    for (const from of [2 * MiB, 4 * MiB]) {
      const copies = await Promise.all([send(from, 2 * MiB), send(from, 2 * MiB), send(from, 2 * MiB)]);
      for (const copy of copies) expect(copy.body).toEqual({ Id: 0, StatusCode: 200, Message: guid });
    }
    const last = await send(6 * MiB, 5);
    expect(last.body).toEqual({ Id: expect.any(Number), StatusCode: 200, Message: guid });
    expect((await download(guid, writer.apiKey)).bytes?.equals(bytes)).toBe(true);
  });

  it('writes DynamoDB at most twice for a chunk between the first and the last: claim, then advance', async () => {
    const bytes = patternBytes(6 * MiB + 5, 17);
    const send = (from: number, length: number) =>
      uploadFile(uploadUrl(), writer.apiKey, {
        fileName: 'writes.bin',
        bytes: bytes.subarray(from, from + length),
        contentRange: rangeOf(from, length, bytes.length),
      });
    const guid = String((await send(0, 2 * MiB)).body.Message);
    // The second chunk is held (under 5 MiB), the third makes the first part: both kinds of middle chunk.
    for (const from of [2 * MiB, 4 * MiB]) {
      const calls: string[] = [];
      const name = `count-${Math.random()}`;
      dynamo().middlewareStack.add(
        (next, context) => async (args) => {
          calls.push(String(context.commandName));
          return next(args);
        },
        { step: 'initialize', name },
      );
      try {
        expect((await send(from, 2 * MiB)).body.Message).toBe(guid);
      } finally {
        dynamo().middlewareStack.remove(name);
      }
      // Reads are allowed (authentication's cache may expire); writes are the claim and the advance.
      expect(calls.filter((call) => !/^(Get|BatchGet|Query)/.test(call))).toEqual([
        'UpdateItemCommand',
        'PutItemCommand',
      ]);
    }
    expect((await send(6 * MiB, 5)).body.Message).toBe(guid);
    expect((await download(guid, writer.apiKey)).bytes?.equals(bytes)).toBe(true);
  });

  it('gives a resent chunk that was already applied its answer again', async () => {
    const bytes = patternBytes(40, 13);
    const send = (from: number, length: number) =>
      uploadFile(uploadUrl(), writer.apiKey, {
        fileName: 'again.bin',
        bytes: bytes.subarray(from, from + length),
        contentRange: rangeOf(from, length, bytes.length),
      });
    const guid = String((await send(0, 20)).body.Message);
    expect((await send(20, 20)).body.Message).toBe(guid);
    const again = await send(20, 20);
    expect(again.body).toEqual({ Id: expect.any(Number), StatusCode: 200, Message: guid });
    // The same file, registered once.
    const id = again.body.Id;
    expect((await send(20, 20)).body.Id).toBe(id);
  });

  // 2 + 2 MiB held, then 2 MiB → part 1 (6 MiB), then 1 MiB → part 2 and completion.
  const chunks = [0, 2, 4, 6].map((at) => at * MiB);
  const faults: [
    string,
    's3' | 'dynamo',
    'before' | 'after',
    number,
    (command: string, input: Input) => boolean,
  ][] = [
    [
      'the held bytes’ PutObject fails',
      's3',
      'before',
      1,
      (c, i) => c === 'PutObjectCommand' && /uploads\//.test(String(i.Key)),
    ],
    [
      'the held bytes’ PutObject answer is lost',
      's3',
      'after',
      1,
      (c, i) => c === 'PutObjectCommand' && /uploads\//.test(String(i.Key)),
    ],
    [
      'the chunk’s claim fails',
      'dynamo',
      'before',
      2,
      (_c, i) => /#claim = :claim/.test(String(i.UpdateExpression)),
    ],
    ['reading the held bytes fails', 's3', 'before', 2, (c) => c === 'GetObjectCommand'],
    ['CreateMultipartUpload fails', 's3', 'before', 2, (c) => c === 'CreateMultipartUploadCommand'],
    ['UploadPart fails', 's3', 'before', 2, (c) => c === 'UploadPartCommand'],
    ['UploadPart’s answer is lost', 's3', 'after', 2, (c) => c === 'UploadPartCommand'],
    [
      'saving the state fails',
      'dynamo',
      'before',
      2,
      (_c, i) => /#claim.#md5 = :md5/.test(String(i.ConditionExpression)),
    ],
    [
      'the state is saved but the answer is lost',
      'dynamo',
      'after',
      2,
      (_c, i) => /#claim.#md5 = :md5/.test(String(i.ConditionExpression)),
    ],
    ['the last part’s UploadPart fails', 's3', 'before', 3, (c) => c === 'UploadPartCommand'],
    [
      'saving the last state is lost',
      'dynamo',
      'after',
      3,
      (_c, i) => /#claim.#md5 = :md5/.test(String(i.ConditionExpression)),
    ],
    ['CompleteMultipartUpload fails', 's3', 'before', 3, (c) => c === 'CompleteMultipartUploadCommand'],
    [
      'CompleteMultipartUpload’s answer is lost (recovered at once)',
      's3',
      'after',
      3,
      (c) => c === 'CompleteMultipartUploadCommand',
    ],
    ['storing the file’s row fails', 'dynamo', 'before', 3, (_c, i) => hasItemWith(i, 'BinaryId')],
    [
      'the file’s row is stored but the answer is lost',
      'dynamo',
      'after',
      3,
      (_c, i) => hasItemWith(i, 'BinaryId'),
    ],
    [
      'recording the answer is lost',
      'dynamo',
      'after',
      3,
      (_c, i) => /result/.test(JSON.stringify(i.Item ?? {})),
    ],
  ];

  it.each(faults)(
    'ends byte-exact when %s and the chunk is resent',
    async (_case, client, when, at, match) => {
      const bytes = patternBytes(7 * MiB, at * 17);
      const name = `fault-${_case}.bin`;
      const send = (index: number) => {
        const from = chunks[index] as number;
        const end = chunks[index + 1] ?? bytes.length;
        return uploadFile(
          uploadUrl(),
          writer.apiKey,
          {
            fileName: name,
            bytes: bytes.subarray(from, end),
            contentRange: rangeOf(from, end - from, bytes.length),
          },
          index === chunks.length - 1 ? { FileHash: md5(bytes) } : {},
        );
      };
      const answers = [];
      for (let index = 0; index < chunks.length; index++) {
        const fault = index === at ? injectFault(client, when, match) : undefined;
        try {
          const answer = await send(index);
          if (fault) {
            expect(fault.fired()).toBe(true);
            if (_case.includes('recovered at once')) {
              // The object is there at the upload's own key: the service sees the work was done.
              expect(answer.body).toMatchObject({ StatusCode: 200 });
              answers.push(answer);
              continue;
            }
            expect(answer.status).toBe(500);
            expect(answer.body).toEqual({
              Id: 0,
              StatusCode: 500,
              Message: 'An internal server error occurred.',
            });
          } else {
            answers.push(answer);
            continue;
          }
        } finally {
          fault?.stop();
        }
        answers.push(await send(index));
      }
      const guid = String(answers[0]?.body.Message);
      for (const answer of answers) expect(answer.body).toMatchObject({ StatusCode: 200, Message: guid });
      const binaryId = Number(answers.at(-1)?.body.Id);
      expect(binaryId).toBeGreaterThan(0);
      // Once more: the same registration, not a second file.
      expect((await send(chunks.length - 1)).body).toEqual({
        Id: binaryId,
        StatusCode: 200,
        Message: guid,
      });
      const file = await download(guid, writer.apiKey);
      expect(file.bytes?.equals(bytes)).toBe(true);
    },
  );
});
