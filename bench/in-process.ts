import { randomUUID } from 'node:crypto';
import {
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import type { Route } from '../lib/routes';
import { dynamo, dynamoDbClientConfig } from '../lib/storage/clients';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { lambdaContext } from '../local/lambda-context';
import { compare, type LoadOptions, type LoadResult } from './load';
import { round } from './stats';

/**
 * What a request adds to its storage calls, in process (issue 15): a handler called with a payload 2.0
 * event, against the very DynamoDB calls it makes, replayed with a bare client, on one DynamoDB Local, in
 * the same run. The calls are observed on the real client (a middleware that records, never changes) during
 * a warm request; the bare loop then sends the same low-level commands with the same inputs, so the figure
 * counts everything Kiroku does around them (event, middy, zod, canonicalizing, logger, envelope, document
 * marshalling) and nothing else. No HTTP hop: bench/sessions.ts keeps the through-the-gateway figure.
 */

export interface InProcessCase extends LoadOptions {
  readonly name: string;
  /** The storage calls one warm request makes, by command. */
  readonly calls: readonly string[];
  readonly kiroku: LoadResult;
  readonly bare: LoadResult;
  /** kiroku.pairsPerSecond / bare.pairsPerSecond */
  readonly ratio: number;
}

type Handler = ((event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>) & {
  readonly route: Route;
};
interface Answer {
  readonly statusCode: number;
  readonly body: string;
  readonly cookies?: string[];
}
interface Call {
  readonly command: string;
  readonly input: Record<string, unknown>;
}

/** A low-level command made from a recorded input (any command: the replay sends what was recorded). */
type Send = (client: DynamoDBClient, input: Record<string, unknown>) => Promise<unknown>;
const commands: Readonly<Record<string, Send>> = {
  GetItemCommand: (client, input) => client.send(new GetItemCommand(input as never)),
  PutItemCommand: (client, input) => client.send(new PutItemCommand(input as never)),
  QueryCommand: (client, input) => client.send(new QueryCommand(input as never)),
  UpdateItemCommand: (client, input) => client.send(new UpdateItemCommand(input as never)),
};

/** A payload 2.0 event as API Gateway builds it for a JSON POST (local/http-api-event.ts's shape). */
function eventFor(
  route: Route,
  path: string,
  body: object,
  cookies?: readonly string[],
): APIGatewayProxyEventV2 {
  const now = Date.now();
  const routeKey = `${route.method} ${route.path}`;
  const id = /\/(\d+)\//.exec(path)?.[1];
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    ...(cookies && cookies.length > 0 && { cookies: [...cookies] }),
    headers: {
      'content-type': 'application/json',
      host: 'localhost',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
    },
    ...(id && { pathParameters: { id } }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

async function invoke(
  handler: Handler,
  path: string,
  body: object,
  cookies?: readonly string[],
): Promise<Answer> {
  const event = eventFor(handler.route, path, body, cookies);
  const answer = (await handler(event, lambdaContext(handler.route.handler))) as Answer;
  const status = JSON.parse(answer.body).StatusCode;
  if (answer.statusCode !== 200 || status !== 200) {
    throw new Error(`${handler.route.handler} answered ${answer.statusCode}: ${answer.body}`);
  }
  return answer;
}

/** The low-level DynamoDB calls `run` makes, observed on the service's own client. */
async function callsOf(run: () => Promise<unknown>): Promise<Call[]> {
  const calls: Call[] = [];
  const name = `bench-record-${randomUUID()}`;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({
        command: String(context.commandName),
        input: structuredClone(args.input) as Call['input'],
      });
      return next(args);
    },
    // After the document client's marshalling: the input the low-level command sends.
    { step: 'build', name },
  );
  try {
    await run();
  } finally {
    dynamo().middlewareStack.remove(name);
  }
  return calls;
}

/** Sends the recorded calls, in order, with a bare client. */
function replay(client: DynamoDBClient, calls: readonly Call[]): () => Promise<void> {
  const made = calls.map(({ command, input }) => {
    const send = commands[command];
    if (!send) throw new Error(`the bare loop cannot replay ${command}`);
    return { send, input };
  });
  // The low-level commands do not change their input, so one recorded input serves every replay.
  return async () => {
    for (const { send, input } of made) await send(client, input);
  };
}

export async function benchInProcess(loads: readonly LoadOptions[]): Promise<InProcessCase[]> {
  const dynamodb = await startDynamoDbLocal();
  const bareClient = new DynamoDBClient(
    dynamoDbClientConfig({ KIROKU_DYNAMODB_ENDPOINT: dynamodb.endpoint }),
  );
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    process.env.KIROKU_BUCKET = 'kiroku-bench';
    process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
    await ensureTables({ prefix: `inproc${randomUUID().slice(0, 8)}-` });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
    // Loaded after the environment is set: handlers read their settings at module load.
    const { handler: sessionsSet } = (await import('../functions/sessions-set')) as { handler: Handler };
    const { handler: sessionsGet } = (await import('../functions/sessions-get')) as { handler: Handler };
    const { handler: createSite } = (await import('../functions/items-createsite')) as { handler: Handler };
    const { handler: createRecord } = (await import('../functions/items-create')) as { handler: Handler };
    const { handler: itemsGet } = (await import('../functions/items-get')) as { handler: Handler };

    const site = await invoke(createSite, '/api/items/0/createsite', {
      ApiKey: apiKey,
      Title: 'Bench',
      ReferenceType: 'Results',
    });
    const siteId = Number(JSON.parse(site.body).Id);
    const record = await invoke(createRecord, `/api/items/${siteId}/create`, { ApiKey: apiKey, Title: 'R' });
    const recordId = Number(JSON.parse(record.body).Id);

    const value = 'v'.repeat(100);
    const first = await invoke(sessionsSet, '/api/sessions/set', {
      ApiKey: apiKey,
      SessionKey: 'k',
      SessionValue: value,
    });
    const cookies = (first.cookies ?? []).map((cookie) => cookie.split(';')[0] as string);
    const sessionPair = async () => {
      await invoke(
        sessionsSet,
        '/api/sessions/set',
        { ApiKey: apiKey, SessionKey: 'k', SessionValue: value },
        cookies,
      );
      const got = await invoke(
        sessionsGet,
        '/api/sessions/get',
        { ApiKey: apiKey, SessionKey: 'k' },
        cookies,
      );
      if (!got.body.includes(value)) throw new Error(`sessions/get did not return the value: ${got.body}`);
    };
    const recordGet = async () => {
      const got = await invoke(itemsGet, `/api/items/${recordId}/get`, { ApiKey: apiKey });
      if (!got.body.includes('"Title":"R"'))
        throw new Error(`items/get did not return the record: ${got.body}`);
    };

    const cases = [
      { name: 'sessions set+get', pair: sessionPair },
      { name: 'record get', pair: recordGet },
    ];
    const results: InProcessCase[] = [];
    for (const { name, pair } of cases) {
      await pair(); // warm: authentication cached, as for every request but one in 5 s
      const calls = await callsOf(pair);
      const bare = replay(bareClient, calls);
      await bare(); // the replay must work before it is timed
      for (const load of loads) {
        const pids = { bench: process.pid, dynamodb: dynamodb.pid };
        const { kiroku, bare: bareResult } = await compare(load, {
          kiroku: { pair, pids },
          bare: { pair: bare, pids },
        });
        results.push({
          ...load,
          name,
          calls: calls.map((call) => call.command),
          kiroku,
          bare: bareResult,
          ratio: round(kiroku.pairsPerSecond / bareResult.pairsPerSecond, 3),
        });
      }
    }
    return results;
  } finally {
    bareClient.destroy();
    await dynamodb.stop();
  }
}
