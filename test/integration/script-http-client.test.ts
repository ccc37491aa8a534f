import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { logger } from '../../lib/log';
import { createUser, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// httpClient, logs and utilities through the record API, as a site's scripts use them: the checks and
// limits themselves are in test/unit/scripts/http-client.test.ts and logs-utilities.test.ts.

let stack: Stack;
let admin: string;
let writer: TestUser;
let receiver: Server;
let receiverUrl: string;
const heard: string[] = [];

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const record = async (id: number) => {
  const read = await post(`/api/items/${id}/get`, { ApiKey: admin });
  return (read.body.Response as { Data: Record<string, Record<string, unknown>>[] }).Data[0];
};

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      heard.push(body);
      response.writeHead(201, { 'X-Ticket': 'T-1' }).end(JSON.stringify({ ticket: 'T-1' }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tickets`;
  stack = await startStack();
  const accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await stack.close();
});
beforeEach(() => {
  heard.length = 0;
  vi.restoreAllMocks();
  vi.spyOn(logger, 'warn');
});
afterEach(() => useSettings(undefined));

const allow = (hosts: string[]) => {
  const base = loadSettings();
  useSettings({ ...base, Script: { ...base.Script, ServerScriptHttpClientAllowedHosts: hosts } });
};

describe('httpClient in a record script', () => {
  const script = () => `
    httpClient.RequestUri = '${receiverUrl}';
    httpClient.Content = JSON.stringify({ title: model.Title, day: utilities.Today() instanceof Date });
    try {
      const answer = JSON.parse(httpClient.Post());
      model.ClassA = answer.ticket + ' ' + httpClient.StatusCode + ' ' + httpClient.ResponseHeaders.Item.get('X-Ticket')[0];
    } catch (e) {
      logs.LogWarning(e.message, 'ticket');
      model.ClassA = 'refused';
    }`;

  it.each([
    ['the setting names the receiver', ['127.0.0.1'], 'T-1 201 T-1', 1],
    ['the setting is empty', [], 'refused', 0],
  ])('posts on create when %s', async (_case, hosts, classA, requests) => {
    const site = await createSite(stack.url, admin, 0, {
      ReferenceType: 'Issues',
      Permissions: [`User,${writer.userId},15`],
      SiteSettings: { ServerScripts: [{ Name: 'ticket', Body: script(), BeforeCreate: true }] },
    });
    allow(hosts);
    const id = await createRecord(stack.url, writer.apiKey, site, { Title: 'Printer' });
    expect((await record(id))?.ClassHash?.ClassA).toBe(classA);
    expect(heard).toEqual(requests ? [JSON.stringify({ title: 'Printer', day: true })] : []);
    if (!requests) {
      expect(logger.warn).toHaveBeenCalledWith(
        'server script log',
        expect.objectContaining({
          siteId: site,
          condition: 'BeforeCreate',
          script: 'ticket',
          logType: 'Warning',
          method: 'ticket',
          message: expect.stringContaining('127.0.0.1 is not in Script.ServerScriptHttpClientAllowedHosts'),
        }),
      );
    }
  });
});
