/**
 * The reading members of `items` (CONTRACT 13, reference/pleasanter-script-objects.md 1), each a host
 * call answered by lib/scripts/calls/item-reads.ts. A part of the prelude (lib/scripts/prelude.ts), in its
 * scope.
 */
export const ITEM_READS = `
  const models = (found) =>
    isArray(found) ? found.map((value) => apiModel(value)) : found === null ? null : apiModel(found);
  member('items', 'Get', (id) => models(call('items.Get', Number(id))));
  member('items', 'GetSite', (id) => models(call('items.GetSite', Number(id))));
  member('items', 'GetClosestSite', (name, originId) =>
    models(call('items.GetClosestSite', text(name), originId === undefined || originId === null ? 0 : Number(originId))));
`;
