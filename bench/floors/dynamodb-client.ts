// A floor of bench/bundles.ts: the DynamoDB document client, as every function with storage loads it.
export { dynamo } from '../../lib/storage/clients';
