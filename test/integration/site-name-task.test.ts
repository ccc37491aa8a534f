import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTask, queueTask } from '../../lib/tasks/repository';
import { runStep } from '../../lib/tasks/worker';
import { seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The site-name index rebuilt as a background task (RebuildSiteNameIndex), through the running stack
 * without a stream poller: a site created here never reaches the index by the live path, only by the task.
 */

let stack: Stack;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
});
afterAll(() => stack.close());

const closest = async (origin: number, name: string) => {
  const result = await call(stack.url, `/api/items/${origin}/getclosestsiteid`, {
    ApiKey: admin,
    FindSiteNames: [name],
  });
  return (result.body.Data as { SiteId: number }[])[0]?.SiteId;
};

describe('the RebuildSiteNameIndex task', () => {
  it('builds the tenant index afresh from its sites, in one page, Completed with Total and Done 1', async () => {
    const origin = await createSite(stack.url, admin, 0, { Title: 'Origin', ReferenceType: 'Issues' });
    expect(await closest(origin, 'task-built')).toBe(-1);
    const named = await createSite(stack.url, admin, 0, {
      Title: 'Named',
      ReferenceType: 'Issues',
      SiteName: 'task-built',
    });
    // No poller: the stored index has not seen the new site.
    expect(await closest(origin, 'task-built')).toBe(-1);

    const { task } = await queueTask({ tenantId: 1, kind: 'RebuildSiteNameIndex', scopeId: 0 }, Date.now());
    while (await runStep(task.taskId)) {}
    expect(await getTask(task.taskId)).toMatchObject({ status: 'Completed', total: 1, done: 1 });
    expect(await closest(origin, 'task-built')).toBe(named);
  });
});
