import { describe, expect, it } from 'vitest';
import { writtenTables } from '../../lib/storage/local-writes';

describe('lib/storage/local-writes', () => {
  describe('writtenTables', () => {
    it.each([
      ['PutItemCommand', { TableName: 'items' }, ['items']],
      ['UpdateItemCommand', { TableName: 'tasks' }, ['tasks']],
      ['DeleteItemCommand', { TableName: 'binaries' }, ['binaries']],
      ['BatchWriteItemCommand', { RequestItems: { items: [], accounts: [] } }, ['items', 'accounts']],
      [
        'TransactWriteItemsCommand',
        {
          TransactItems: [
            { Put: { TableName: 'items' } },
            { ConditionCheck: { TableName: 'items' } },
            { Delete: { TableName: 'tasks' } },
          ],
        },
        ['items', 'tasks'],
      ],
      ['GetItemCommand', { TableName: 'items' }, []],
      ['QueryCommand', { TableName: 'items' }, []],
    ])('%s %j writes %j', (command, input, tables) => {
      expect(writtenTables(command, input)).toEqual(tables);
    });
  });
});
