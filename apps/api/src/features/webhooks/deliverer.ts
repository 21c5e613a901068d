/**
 * Delivers the outbox's events (docs/webhooks.md, docs/reliability.md). Every instance that runs the
 * reconciler runs this loop too: each endpoint's due deliveries are claimed and sent by a worker of
 * their own (so that an endpoint that never answers delays no other's), with a lease (so that no
 * two instances send the same one at once); it POSTs each signed (signature.ts) to an address checked at that moment
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
import type { Database } from '../../db/schema.ts';
import type { WebhookSettings } from '../../config/webhook-settings.ts';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import { transact } from '../../db/transact.ts';
import { startLoop, whileFull, type BackgroundLoop } from '../../db/background-loop.ts';
import { logFailure } from '../../db/unavailable.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
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
  const disabled = await transact(deps.db, async (trx) => {
    const endpoint = await repo.findEndpoint(trx, endpointId);
    if (!endpoint || endpoint.enabled !== 1 || endpoint.failing_since === null) return false;
    if (now - Date.parse(endpoint.failing_since) <= GIVE_UP_AFTER_MS) return false;
    const disabledNow = await repo.disableEndpoint(trx, endpointId, {
      disabled_reason: 'failing',
      disabled_at: iso(now),
      updated_at: iso(now),
    });
    if (!disabledNow) return false;
    await recordAudit(trx, {
      at: new Date(now),
      actorKind: 'command',
      actor: null,
      action: 'webhook_endpoint_disabled',
      target: endpointId,
      detail: auditDetail.endpointFailing(endpoint.url, endpoint.failing_since),
    });
    return true;
  });
  // Only when it was: most failures of an endpoint are within its three days.
  if (disabled)
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

async function deliverOne(
  deps: DelivererDeps,
  owner: string,
  delivery: repo.DueDelivery,
  signal: AbortSignal | undefined,
) {
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
    ...(signal ? { signal } : {}),
  });
  // Cut short by a stop: not an attempt. The claim is given back, and the delivery sent again
  // (by this instance once restarted, or another): at least once, never lost.
  if (result.abandoned) return repo.releaseLease(deps.db, delivery.id, owner);
  await record(deps, owner, delivery, result, at.getTime());
}

/**
 * Claims and sends one batch of the deliveries due now (to `endpointId` alone if given), side by
 * side; returns how many were claimed.
 */
export async function deliverBatch(
  deps: DelivererDeps,
  owner: string,
  endpointId?: string,
  signal?: AbortSignal,
): Promise<number> {
  const now = deps.now().getTime();
  const ids = await repo.claimDueDeliveries(
    deps.db,
    owner,
    iso(now),
    iso(now + deps.settings.leaseMs),
    BATCH,
    endpointId,
  );
  const claimed = await repo.loadClaimed(deps.db, ids);
  await Promise.all(
    claimed.map(async (delivery) => {
      try {
        await deliverOne(deps, owner, delivery, signal);
      } catch (error) {
        deps.log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery failed');
      }
    }),
  );
  return ids.length;
}

/**
 * One pass, awaited: a batch of each endpoint's due deliveries, the endpoints side by side; returns
 * how many were claimed. The tests' deliverer; the running one is startDeliverer's.
 */
export async function deliverDue(deps: DelivererDeps, owner: string): Promise<number> {
  const due = await repo.endpointsWithDueDeliveries(deps.db, iso(deps.now().getTime()));
  const counts = await Promise.all(due.map((endpointId) => deliverBatch(deps, owner, endpointId)));
  return counts.reduce((sum, count) => sum + count, 0);
}

/**
 * Sends due deliveries until stopped, each endpoint apart from the others, so that one that is slow
 * or never answers holds up only its own events. Every WEBHOOK_INTERVAL_MS a round looks for the
 * endpoints with deliveries due and starts a worker for each that has none in this instance; a
 * worker claims (with the lease) and sends its endpoint's deliveries a batch at a time until none
 * is left, then ends. The round never waits for a send. `stop` ends the rounds, abandons the sends
 * under way (their claims are given back, so they are sent again) and waits for the workers.
 */
export function startDeliverer(deps: DelivererDeps): BackgroundLoop {
  const owner = randomUUID();
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;
  const workers = new Map<string, Promise<void>>();
  const words = {
    unavailable: 'webhook delivery waits for the database',
    failed: 'webhook delivery round failed',
  };
  const startWorker = (endpointId: string) => {
    const worker = whileFull(
      () => deliverBatch(deps, owner, endpointId, stopping.signal),
      BATCH,
      stopped,
    )
      .catch((error: unknown) => logFailure(deps.log, error, words))
      .finally(() => workers.delete(endpointId));
    workers.set(endpointId, worker);
  };
  const loop = startLoop({
    log: deps.log,
    words,
    firstMs: deps.settings.intervalMs,
    intervalMs: deps.settings.intervalMs,
    round: async (isStopped) => {
      const due = await repo.endpointsWithDueDeliveries(deps.db, iso(deps.now().getTime()));
      for (const endpointId of due) {
        if (isStopped()) return;
        if (!workers.has(endpointId)) startWorker(endpointId);
      }
    },
  });
  return {
    async stop() {
      await loop.stop();
      stopping.abort();
      await Promise.all(workers.values());
    },
  };
}
