/**
 * The reading members of `items` (CONTRACT 13, reference/pleasanter-script-objects.md 1), each a host
 * call answered by lib/scripts/calls/item-reads.ts and item-aggregates.ts. A part of the prelude
 * (lib/scripts/prelude.ts), in its scope.
 *
 * Lists are real arrays with the .NET names `Length` and `Count` beside `length`, not enumerable, so that
 * `for…of`, `Array.from` and `items.Get(id).Length` all work as on the reference. A view body is passed
 * as the script gave it: a JSON string, or an object (which the host reads as that JSON).
 */
export const ITEM_READS = `
  {
    const readsList = (array) => {
      const length = { get: () => array.length, enumerable: false };
      defineProperty(array, 'Length', length);
      defineProperty(array, 'Count', length);
      return array;
    };
    const models = (found) => readsList(isArray(found) ? found.map((value) => apiModel(value)) : []);
    const viewBody = (view) =>
      view === undefined || view === null || typeof view === 'string' || typeof view === 'object' ? view : text(view);
    // utilities.EmptyTime(): DateTime.MinValue, what MaxDate and MinDate answer when there is no value.
    const EMPTY_TIME = -62135596800000;
    const dateOf = (ms) => new Date(ms === null ? EMPTY_TIME : ms);
    member('items', 'Get', (id, view) => models(call('items.Get', Number(id), viewBody(view))));
    member('items', 'GetSite', (id) => models(call('items.GetSite', Number(id))));
    member('items', 'GetSiteByName', (name) => models(call('items.GetSiteByName', text(name))));
    member('items', 'GetSiteByTitle', (title) => models(call('items.GetSiteByTitle', text(title))));
    member('items', 'GetSiteByGroupName', (name) => models(call('items.GetSiteByGroupName', text(name))));
    member('items', 'GetClosestSite', (name, originId) => {
      const found = call('items.GetClosestSite', text(name), originId === undefined || originId === null ? 0 : Number(originId));
      return found === null ? null : apiModel(found);
    });
    for (const name of ['Sum', 'Average', 'Max', 'Min']) {
      member('items', name, (siteId, columnName, view) =>
        call('items.' + name, Number(siteId), text(columnName), viewBody(view)));
    }
    for (const name of ['MaxDate', 'MinDate']) {
      member('items', name, (siteId, columnName, view) =>
        dateOf(call('items.' + name, Number(siteId), text(columnName), viewBody(view))));
    }
    member('items', 'Count', (siteId, view) => call('items.Count', Number(siteId), viewBody(view)));
  }
`;
