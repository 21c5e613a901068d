/**
 * Delivers the outbox's events (docs/webhooks.md, docs/reliability.md). Every instance that runs the
 * reconciler runs this loop too: it claims due deliveries with a lease (so that no two instances
 * send the same one at once), POSTs each signed (signature.ts) to an address checked at that moment
 * (url-guard.ts, http-post.ts), and records the outcome. A 2xx answer delivers it; anything else is
 * tried again with backoff (RETRY_AFTER_S) until three days after the event, then given up. An
 * endpoint whose deliveries have all failed for more than three days is disabled, and the audit
 * trail tells the owner.
 *
 * Every state is in the database, so a restart loses nothing; an instance killed mid-send leaves
 * its lease to lapse (WebhookSettings.leaseMs), after which the delivery is sent again: at least
 * once, never lost. The receiver de-duplicates on the event's id.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.ts';
import type { WebhookSettings } from '../config/webhook-settings.ts';
import { recordAudit } from '../audit/audit.ts';
import { transact } from '../db/transact.ts';
import { startLoop, whileFull, type BackgroundLoop } from '../db/background-loop.ts';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { postWebhook, type PostResult } from './http-post.ts';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.ts';
import { systemResolve, type Resolve } from './url-guard.ts';
import * as repo from './webhooks.repository.ts';

export interface DelivererDeps {
  db: Kysely<Database>;
  now: () => Date;
  log: FastifyBaseLogger;
  settings: WebhookSettings;
  /** DNS (node:dns unless a test gives its own). */
  resolve?: Resolve;
}

/** The wait before each retry, by attempts made: 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then 12 h. */
export const RETRY_AFTER_S = [60, 300, 1800, 7200, 18_000, 36_000] as const;
const RETRY_AFTER_LAST_S = 43_200;
/** How long a delivery is tried, from its event; and how long an endpoint may fail before it is disabled. */
export const GIVE_UP_AFTER_MS = 3 * 24 * 3_600_000;

const BATCH = 10;
const iso = (ms: number) => new Date(ms).toISOString();
const cut = (text: string | null, max: number) =>
  text === null ? null : text.length > max ? text.slice(0, max) : text;

export function retryAfterS(attempts: number): number {
  return RETRY_AFTER_S[attempts - 1] ?? RETRY_AFTER_LAST_S;
}

const delivered = (result: PostResult) =>
  result.status !== null && result.status >= 200 && result.status < 300;

/** The words kept for an answer that did not deliver: a redirect is named as such. */
function failureWords(result: PostResult): string | null {
  if (result.status !== null && result.status >= 300 && result.status < 400)
    return 'A redirect is not followed: give the endpoint’s final URL.';
  return result.error;
}

/** The endpoint has failed since `since`: past three days, it is disabled and the owner told. */
async function disableIfFailingTooLong(deps: DelivererDeps, endpointId: string, now: number) {
  await transact(deps.db, async (trx) => {
    const endpoint = await repo.findEndpoint(trx, endpointId);
    if (!endpoint || endpoint.enabled !== 1 || endpoint.failing_since === null) return;
    if (now - Date.parse(endpoint.failing_since) <= GIVE_UP_AFTER_MS) return;
    await repo.updateEndpoint(trx, endpointId, {
      enabled: 0,
      disabled_reason: 'failing',
      disabled_at: iso(now),
      updated_at: iso(now),
    });
    await recordAudit(trx, {
      at: new Date(now),
      actorKind: 'command',
      actor: null,
      action: 'webhook_endpoint_disabled',
      target: endpointId,
      detail: `Every delivery to ${endpoint.url} has failed since ${endpoint.failing_since}: no more events are sent to it until it is enabled again.`,
    });
  });
  deps.log.warn({ endpointId }, 'webhook endpoint disabled: failing for more than three days');
}

async function record(
  deps: DelivererDeps,
  owner: string,
  delivery: repo.DueDelivery,
  result: PostResult,
  now: number,
) {
  const attempts = Number(delivery.attempts) + 1;
  const ok = delivered(result);
  const next = now + retryAfterS(attempts) * 1000;
  const giveUp = !ok && next > Date.parse(delivery.event_created_at) + GIVE_UP_AFTER_MS;
  const kept = await repo.recordAttempt(deps.db, delivery.id, owner, {
    attempts,
    last_attempt_at: iso(now),
    last_status: result.status,
    last_duration_ms: result.durationMs,
    last_response: cut(result.response, MAX_LENGTH.webhookResponse),
    last_error: cut(ok ? null : failureWords(result), MAX_LENGTH.webhookError),
    delivered_at: ok ? iso(now) : null,
    gave_up_at: giveUp ? iso(now) : null,
    next_attempt_at: ok || giveUp ? null : iso(next),
  });
  if (!kept) return;
  await repo.markEndpointOutcome(deps.db, delivery.endpoint_id, ok, iso(now));
  if (!ok) await disableIfFailingTooLong(deps, delivery.endpoint_id, now);
}

async function deliverOne(deps: DelivererDeps, owner: string, delivery: repo.DueDelivery) {
  const at = deps.now();
  const eventId = (JSON.parse(delivery.body) as { id: string }).id;
  const result = await postWebhook({
    url: delivery.url,
    body: delivery.body,
    headers: {
      [SIGNATURE_HEADER]: signatureHeader(delivery.secret, delivery.body, at),
      [EVENT_ID_HEADER]: eventId,
      'User-Agent': 'mpesa-payments-webhooks/1',
    },
    timeoutMs: deps.settings.timeoutMs,
    policy: deps.settings,
    resolve: deps.resolve ?? systemResolve,
  });
  await record(deps, owner, delivery, result, at.getTime());
}

/** Claims and sends every delivery due now (a batch); returns how many were claimed. */
export async function deliverDue(deps: DelivererDeps, owner: string): Promise<number> {
  const now = deps.now().getTime();
  const ids = await repo.claimDueDeliveries(
    deps.db,
    owner,
    iso(now),
    iso(now + deps.settings.leaseMs),
    BATCH,
  );
  const claimed = await repo.loadClaimed(deps.db, ids);
  await Promise.all(
    claimed.map(async (delivery) => {
      try {
        await deliverOne(deps, owner, delivery);
      } catch (error) {
        deps.log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery failed');
      }
    }),
  );
  return ids.length;
}

/** Sends due deliveries every WEBHOOK_INTERVAL_MS until stopped. */
export function startDeliverer(deps: DelivererDeps): BackgroundLoop {
  const owner = randomUUID();
  return startLoop({
    log: deps.log,
    words: {
      unavailable: 'webhook delivery waits for the database',
      failed: 'webhook delivery round failed',
    },
    firstMs: deps.settings.intervalMs,
    intervalMs: deps.settings.intervalMs,
    round: (stopped) => whileFull(() => deliverDue(deps, owner), BATCH, stopped),
  });
}
