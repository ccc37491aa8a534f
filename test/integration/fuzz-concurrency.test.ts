import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findItem } from '../../lib/items/record-repository';
import { getSite } from '../../lib/sites/repository';
import { seedAccounts } from '../fixtures/accounts';
import { type CallResult, call } from '../fixtures/client';
import { expectWellFormed } from '../fixtures/hostile';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Concurrent writes to one small tree: moves, site updates, record updates and deletes, interleaved at
 * random. Invariants: never a 500, the sites always a tree, and every record that remains carries exactly
 * the updates that were answered 200 (each applied whole, none lost, none reported as 404).
 */

let stack: Stack;
let admin: string;
const TENANT = 1;

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
});
afterAll(() => stack.close());

type Operation =
  | { kind: 'move'; site: number; to: number }
  | { kind: 'rename'; site: number }
  | { kind: 'update'; record: number; letter: string }
  | { kind: 'delete'; record: number }
  | { kind: 'deletesite'; site: number };

const FOLDERS = 4;
const RECORDS = 3;
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('move' as const), site: fc.nat(FOLDERS), to: fc.nat(FOLDERS) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), site: fc.nat(FOLDERS) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      record: fc.nat(RECORDS - 1),
      letter: fc.constantFrom(...'ABCDEFGH'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), record: fc.nat(RECORDS - 1) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('deletesite' as const), site: fc.nat(FOLDERS - 1) }),
  },
);

/** Folders 0–3 and the table (index 4, in folder 0), 3 records in the table. */
async function freshTree() {
  const folders: number[] = [];
  for (let index = 0; index < FOLDERS; index++)
    folders.push(await createSite(stack.url, admin, 0, { Title: `F${index}` }));
  const table = await createSite(stack.url, admin, folders[0] as number, { ReferenceType: 'Results' });
  const records: number[] = [];
  for (let index = 0; index < RECORDS; index++) records.push(await createRecord(stack.url, admin, table));
  return { sites: [...folders, table], records };
}

function send(tree: { sites: number[]; records: number[] }, op: Operation): Promise<CallResult> {
  const post = (path: string, body: object) => call(stack.url, path, { ApiKey: admin, ...body });
  const site =
    tree.sites[op.kind === 'move' || op.kind === 'rename' || op.kind === 'deletesite' ? op.site : 0];
  switch (op.kind) {
    case 'move':
      // `to` past the folders is the top level.
      return post(`/api/items/${site}/updatesite`, { ParentId: op.to < FOLDERS ? tree.sites[op.to] : 0 });
    case 'rename':
      return post(`/api/items/${site}/updatesite`, { Title: `renamed ${Math.random()}` });
    case 'update':
      return post(`/api/items/${tree.records[op.record]}/update`, { [`Class${op.letter}`]: 'x' });
    case 'delete':
      return post(`/api/items/${tree.records[op.record]}/delete`, {});
    case 'deletesite':
      return post(`/api/items/${site}/deletesite`, {});
  }
}

describe('concurrent writes to one tree', () => {
  it('keep the envelope, the tree a tree, and every answered update applied once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 6, maxLength: 12 }), async (operations) => {
        const tree = await freshTree();
        const answers = await Promise.all(operations.map((op) => send(tree, op)));
        for (const answer of answers) {
          expectWellFormed(answer);
          expect([200, 400, 403, 404]).toContain(answer.status);
        }

        for (const id of tree.sites) {
          const seen = new Set<number>();
          for (let at = id; at !== 0; ) {
            const site = await getSite(TENANT, at);
            if (!site) break;
            expect(seen.has(at), `site ${id} climbs through ${at} twice`).toBe(false);
            seen.add(at);
            at = site.parentId;
          }
        }

        for (const [index, id] of tree.records.entries()) {
          const item = await findItem(TENANT, id);
          if (item?.kind !== 'record') continue;
          const updated = operations.filter(
            (op, at) => op.kind === 'update' && op.record === index && answers[at]?.status === 200,
          ).length;
          expect(item.record.ver).toBe(1 + updated);
        }
      }),
      { numRuns: 8 },
    );
  }, 120_000);
});
