import { callerZone } from '../../accounts/caller-zone';
import type { Principal } from '../../accounts/principal';
import { ApiError, BadRequestError, NotFoundError } from '../../errors';
import { bulkDelete, bulkDeleteSelection } from '../../items/bulk-delete';
import { compileViewFor } from '../../items/record-get';
import { requireOnRecord } from '../../items/record-permissions';
import { findItem } from '../../items/record-repository';
import {
  checkedInput,
  createRecord,
  deleteRecord,
  recordInTenant,
  requireCreator,
  requireRecordHolder,
  requireUnlocked,
  updateRecord,
} from '../../items/records';
import { bulkDeleteRequest, recordWriteRequest, upsertRequest } from '../../items/schemas';
import { keysMatch, requireWriter, upsert } from '../../items/upsert';
import { logger } from '../../log';
import { type ReferenceType, referenceTypes } from '../../sites/model';
import { Permission, siteInTenant } from '../../sites/permissions';
import { nextItemId } from '../../sites/store';
import { siteView } from '../../sites/views';
import type { HostCallTable, ScriptCallContext } from '../host-calls';
import { toModel } from '../model';
import { withoutApiKey } from '../script-context';
import { createSiteBy, deleteSiteBy, updateSiteBy } from './site-writes';
import { apiModelOf, blankModel, jsonOf, parsed, recordBodyOf, writerOf } from './write-input';

/**
 * The writing members of `items` (CONTRACT 13, reference/pleasanter-script-objects.md 1): each goes
 * through the API's own domain function, as the writer (the script's user, or an ApiKey's in the JSON)
 * with every check the API makes, running the target site's scripts at depth + 1 (`context.nested`).
 * A business failure (permission, not found, invalid input, locked, over the limit, a refusing script) is
 * the reference's false or 0, logged with the script's name; only a fault (storage down) stops the script.
 *
 * In a Before condition (`context.hold` set) a write is checked now and applied after the save it precedes,
 * or dropped with it (CONTRACT 13's departure): once applied, a write cannot be undone unseen (its own
 * scripts, notifications and stream consumers have run), so it must not happen for a save that is then
 * refused or fails. The script gets now what it would get then (true, the count, a create's id, reserved
 * from the id sequence now); it does not see the write itself until the save is done.
 */
export function itemWriteCalls(context: ScriptCallContext): HostCallTable {
  const attempt =
    (name: string, failure: false | 0, write: (...args: unknown[]) => Promise<unknown>) =>
    async (...args: unknown[]): Promise<unknown> => {
      // A write never starts for a script whose time is up: it would outlive the script that asked for it.
      if (Date.now() >= context.deadline)
        return refused(context, name, failure, 'the script ran out of time');
      try {
        return await write(...args);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return refused(context, name, failure, error.reason ?? error.message, error.statusCode);
      }
    };
  return {
    'items.New': async (kind) =>
      referenceTypes.includes(kind as ReferenceType)
        ? blankModel(context.principal, kind as ReferenceType)
        : null,
    'items.Create': attempt('items.Create', false, (id, model) => create(context, idOf(id), model)),
    'items.Update': attempt('items.Update', false, (id, model) => update(context, idOf(id), model)),
    'items.Upsert': attempt('items.Upsert', false, (id, json) => upsertOf(context, idOf(id), json)),
    'items.Delete': attempt('items.Delete', false, (id) => remove(context, idOf(id))),
    'items.BulkDelete': attempt('items.BulkDelete', 0, (id, json) => bulkDeleteOf(context, idOf(id), json)),
  };
}

/** The reference's answer to a write that failed for a business reason, logged so that the author sees why. */
function refused<T>(
  context: ScriptCallContext,
  call: string,
  failure: T,
  reason: string,
  status?: number,
): T {
  logger.warn('a server script write was refused', { ...context.where, call, status, reason });
  return failure;
}

function idOf(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new BadRequestError(`the id ${JSON.stringify(value)} is not an id`);
}

const recordIdName: Partial<Record<ReferenceType, string>> = {
  Issues: 'IssueId',
  Results: 'ResultId',
  Wikis: 'WikiId',
};

/** items.Create(siteId, model): a record, or a site under a folder (0: the top level). */
async function create(context: ScriptCallContext, siteId: number, argument: unknown) {
  const model = apiModelOf(argument);
  const body = model ?? jsonOf(argument);
  const writer = model ? context.principal : await writerOf(context, body);
  const site = siteId === 0 ? undefined : await siteInTenant(writer, siteId);
  if (!site || site.referenceType === 'Sites') {
    const { id, held } = await createSiteBy(context, writer, siteId, body, model);
    if (!model) return { Model: undefined };
    return { Model: held ? { SiteId: id } : await savedModel(writer, id) };
  }
  requireRecordHolder(site);
  await requireCreator(writer, site);
  const input = parsed(recordWriteRequest, model ? recordBodyOf(model, site) : body);
  const scripts = context.nested('create', siteId, { writer });
  if (!context.hold) {
    const { id } = await createRecord(writer, siteId, input, scripts);
    return { Model: model && (await savedModel(writer, id)) };
  }
  checkedInput(writer, site, input);
  const id = await nextItemId();
  context.hold(() => createRecord(writer, siteId, input, scripts, id).then(() => undefined));
  return { Model: model && { [recordIdName[site.referenceType] ?? 'RecordId']: id } };
}

/** The record or site as saved, for the apiModel that created it (`data.SetByModel` in the reference). */
async function savedModel(principal: Principal, id: number) {
  const item = await findItem(principal.tenantId, id);
  if (item?.kind === 'site') return siteView(item.site, callerZone(principal));
  if (item?.kind !== 'record') return undefined;
  const site = await siteInTenant(principal, item.record.siteId);
  return toModel(site, item.record, callerZone(principal));
}

/** items.Update(id, model): a record, or a site when the id is one. */
async function update(context: ScriptCallContext, id: number, argument: unknown) {
  const model = apiModelOf(argument);
  const body = model ?? jsonOf(argument);
  const writer = model ? context.principal : await writerOf(context, body);
  const item = await findItem(writer.tenantId, id);
  if (!item) throw new NotFoundError(`no item ${id} in tenant ${writer.tenantId}`);
  if (item.kind === 'site') return updateSiteBy(context, writer, item.site, body, model);
  const { record } = item;
  const site = await siteInTenant(writer, record.siteId);
  const input = parsed(recordWriteRequest, model ? recordBodyOf(model, site) : body);
  const scripts = context.nested('update', id, { writer });
  if (!context.hold) await updateRecord(writer, id, input, scripts);
  else {
    await requireOnRecord(writer, site, record, Permission.Update);
    await requireUnlocked(writer, record);
    checkedInput(writer, site, input, record);
    context.hold(() => updateRecord(writer, id, input, scripts).then(() => undefined));
  }
  return true;
}

/** items.Upsert(siteId, json): the Keys are in the JSON, so an apiModel (which cannot hold them) is refused. */
async function upsertOf(context: ScriptCallContext, siteId: number, argument: unknown) {
  const body = jsonOf(argument);
  const writer = await writerOf(context, body);
  const input = parsed(upsertRequest, body);
  const scripts = context.nested('upsert', siteId, { writer });
  if (!context.hold) await upsert(writer, siteId, input, scripts);
  else {
    const site = await siteInTenant(writer, siteId);
    requireRecordHolder(site);
    await requireWriter(writer, site);
    if (!input.Keys || input.Keys.length === 0) throw new BadRequestError('upsert without Keys');
    keysMatch(writer, site, input.Keys, input);
    compileViewFor(writer, site, input.View);
    context.hold(() => upsert(writer, siteId, input, scripts).then(() => undefined));
  }
  return true;
}

/** items.Delete(id): a record, or a site (its subtree and records) when the id is one. */
async function remove(context: ScriptCallContext, id: number) {
  const { principal } = context;
  const item = await findItem(principal.tenantId, id);
  if (!item) throw new NotFoundError(`no item ${id} in tenant ${principal.tenantId}`);
  if (item.kind === 'site') return deleteSiteBy(context, item.site);
  const scripts = context.nested('delete', id);
  if (!context.hold) await deleteRecord(principal, id, scripts);
  else {
    const { site, record } = await recordInTenant(principal, id);
    await requireOnRecord(principal, site, record, Permission.Delete);
    await requireUnlocked(principal, record);
    context.hold(() => deleteRecord(principal, id, scripts).then(() => undefined));
  }
  return true;
}

/**
 * items.BulkDelete(siteId, json): the count deleted. Without JSON nothing says which records to delete,
 * and the API's departure (CONTRACT 5.1) refuses it, where the reference deletes what the default view shows.
 */
async function bulkDeleteOf(context: ScriptCallContext, siteId: number, argument: unknown) {
  const body = argument === null || argument === undefined ? {} : jsonOf(argument);
  const writer = await writerOf(context, body);
  const parsedInput = parsed(bulkDeleteRequest, body);
  const input = { ...parsedInput, Selected: parsedInput.Selected ?? undefined };
  // The target's BeforeBulkDelete and AfterBulkDelete, which read the JSON as context.ApiRequestBody.
  const scripts = context.nested('bulkdelete', siteId, { body: withoutApiKey(JSON.stringify(body)) });
  if (!context.hold) return (await bulkDelete(writer, siteId, input, scripts)).count;
  const { records } = await bulkDeleteSelection(writer, siteId, input);
  context.hold(() => bulkDelete(writer, siteId, input, scripts).then(() => undefined));
  return records.length;
}
