/**
 * The writing members of `items` and the apiModel's own methods (CONTRACT 13, reference/pleasanter-script-
 * objects.md 1 and 2), each a host call answered by lib/scripts/calls/item-writes.ts. A model crosses
 * tagged: a string as `{Json}`, an apiModel (a model `items.New*`/`Get` made, known by `apiModels`) as
 * `{Model}`, anything else as `{Other}`, which the host refuses as the reference does. After a create with
 * an apiModel, the model takes the saved record's values (its IssueId or ResultId among them). A part of
 * the prelude (lib/scripts/prelude.ts), in its scope.
 */
export const ITEM_WRITES = `
  const apiModels = new WeakSet();
  const wire = (value) => {
    if (typeof value === 'string') return { Json: value };
    if (value !== null && typeof value === 'object' && apiModels.has(value)) return { Model: value };
    return { Other: value === null ? 'null' : isArray(value) ? 'array' : typeof value };
  };
  const idOfModel = (model) =>
    model.IssueId ?? model.ResultId ?? model.WikiId ?? (model.ReferenceType !== undefined ? model.SiteId : undefined);
  const create = (siteId, model) => {
    const done = call('items.Create', Number(siteId), wire(model));
    if (done === null || done === false) return false;
    if (done.Model && apiModels.has(model)) for (const name of keys(done.Model)) model[name] = done.Model[name];
    return true;
  };
  const update = (id, model) => call('items.Update', Number(id), wire(model)) === true;
  const remove = (id) => call('items.Delete', Number(id)) === true;
  apiModel = (value) => {
    if (value === null || typeof value !== 'object' || apiModels.has(value)) return value;
    apiModels.add(value);
    defineProperty(value, 'Create', { value: (siteId) => create(siteId, value) });
    defineProperty(value, 'Update', { value: () => update(idOfModel(value), value) });
    defineProperty(value, 'Delete', { value: () => remove(idOfModel(value)) });
    return value;
  };
  const newModel = (kind) => apiModel(call('items.New', kind));
  member('items', 'New', () => newModel('Issues'));
  member('items', 'NewIssue', () => newModel('Issues'));
  member('items', 'NewResult', () => newModel('Results'));
  member('items', 'NewSite', (referenceType) =>
    apiModel({ SiteId: 0, Title: '', ReferenceType: text(referenceType), ParentId: 0, InheritPermission: 0,
      Permissions: [], SiteSettings: {} }));
  member('items', 'Create', create);
  member('items', 'Update', update);
  member('items', 'Upsert', (siteId, json) => call('items.Upsert', Number(siteId), wire(json)) === true);
  member('items', 'Delete', remove);
  member('items', 'BulkDelete', (siteId, json) =>
    call('items.BulkDelete', Number(siteId), json === undefined || json === null ? null : wire(json)) ?? 0);
`;
