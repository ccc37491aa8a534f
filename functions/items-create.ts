import { endpoint } from '../lib/http/api';
import { createRecord } from '../lib/items/records';
import { type RecordWriteInput, recordWriteRequest } from '../lib/items/schemas';

export const handler = endpoint({ schema: recordWriteRequest }, ({ input, principal, pathId }) =>
  createRecord(principal, pathId, input as RecordWriteInput),
);
