import type { Principal } from '../accounts/principal';
import { BadRequestError } from '../errors';
import type { Reading } from '../results';
import { requireSiteManager } from '../sites/permissions';
import type { DeliveryRow } from './queue';
import { deliveryPage, failedDeliveryIds, getDelivery, replayDelivery } from './repository';
import type { DeliveriesInput, ReplayInput, SecretInput } from './schemas';
import { rotateSiteSecret, siteSecret } from './secrets';

/**
 * What a site's managers do with its deliveries (CONTRACT 14): list them with their outcome, read or
 * rotate the signing secret, and send Failed ones again. ManageSite on the site; a site of another tenant,
 * or one the caller cannot read, is not found.
 */

export const DELIVERIES_PAGE = 50;
/** Rows a filtered page reads at most before it answers what it found, with Next to go on. */
const MAX_ROWS_READ = 2_000;
const DELIVERY_ID = /^\d{17}-[0-9a-f]{20}$/;

export async function listDeliveries(
  principal: Principal,
  siteId: number,
  input: DeliveriesInput,
): Promise<Reading> {
  await requireSiteManager(principal, siteId);
  const page = await deliveryPage(principal.tenantId, siteId, {
    ...(input.Status && { status: input.Status }),
    ...(input.Next !== undefined && { after: `D#${deliveryIdOfNext(input.Next)}` }),
    size: DELIVERIES_PAGE,
    maxRead: MAX_ROWS_READ,
  });
  return {
    response: {
      Deliveries: page.rows.map(deliveryView),
      ...(page.after && { Next: page.after.slice(2) }),
    },
  };
}

export async function deliverySecret(
  principal: Principal,
  siteId: number,
  input: SecretInput,
): Promise<Reading> {
  await requireSiteManager(principal, siteId);
  const secret = input.Rotate
    ? await rotateSiteSecret(principal.tenantId, siteId)
    : await siteSecret(principal.tenantId, siteId);
  return { response: { Secret: secret.secret, CreatedAt: secret.createdAt } };
}

/** Sends again the deliveries named (Failed or Refused ones), or every Failed one; answers how many. */
export async function replayDeliveries(
  principal: Principal,
  siteId: number,
  input: ReplayInput,
): Promise<number> {
  await requireSiteManager(principal, siteId);
  const { tenantId } = principal;
  const named = input.DeliveryIds !== undefined;
  const ids = input.DeliveryIds ?? (await failedDeliveryIds(tenantId, siteId));
  const rows: DeliveryRow[] = [];
  // Every id is checked before any is replayed: a request that cannot be done whole does nothing.
  for (const [index, id] of [...new Set(ids)].entries()) {
    const row = DELIVERY_ID.test(id) ? await getDelivery(tenantId, siteId, id) : undefined;
    if (!row) {
      if (!named) continue;
      throw new BadRequestError(`${id} is not a delivery of site ${siteId}`, `DeliveryIds[${index}]`);
    }
    if (named && row.Status !== 'Failed' && row.Status !== 'Refused')
      throw new BadRequestError(
        `${id} is ${row.Status}: only Failed and Refused deliveries are sent again`,
        `DeliveryIds[${index}]`,
      );
    if (named && !row.Notice)
      throw new BadRequestError(`${id} was refused for its size and cannot be sent`, `DeliveryIds[${index}]`);
    rows.push(row);
  }
  const replayed = await Promise.all(rows.map(replayDelivery));
  return replayed.filter(Boolean).length;
}

function deliveryIdOfNext(next: string): string {
  if (!DELIVERY_ID.test(next)) throw new BadRequestError("not a previous page's Next", 'Next');
  return next;
}

function deliveryView(row: DeliveryRow): Record<string, unknown> {
  return {
    DeliveryId: row.DeliveryId,
    NotificationId: row.NotificationId,
    RecordId: row.RecordId,
    Event: row.Event,
    Type: row.Type,
    Target: row.Target,
    Status: row.Status,
    Attempts: row.Attempts,
    CreatedAt: row.CreatedAt,
    LastAttemptAt: row.LastAttemptAt,
    NextAttemptAt: row.NextAttemptAt,
    ResponseStatus: row.ResponseStatus,
    Reason: row.Reason,
  };
}
