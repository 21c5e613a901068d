/**
 * How webhooks are delivered (docs/webhooks.md): how often each instance looks for deliveries due,
 * how long one attempt may take, and which addresses an endpoint may point at.
 */
import type { Env } from './env-schema.ts';
import type { Problems } from './problems.ts';

export function webhookSettings(env: Env, problems: Problems) {
  const production = env.MPESA_ENV === 'production';
  problems.require(
    ['WEBHOOK_ALLOW_PRIVATE_URLS', 'MPESA_ENV'],
    !(production && env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true'),
    'WEBHOOK_ALLOW_PRIVATE_URLS=true cannot be used when MPESA_ENV=production: an endpoint could ' +
      'then make the server reach this machine or its private network (server-side request forgery).',
  );
  return Object.freeze({
    /**
     * Whether an endpoint may be on this machine or a private network (features/webhooks/url-guard.ts).
     * Refused by default everywhere but the simulator, so that an endpoint cannot make the server
     * reach what only it can reach (server-side request forgery): a sandbox is often on the
     * internet too. The simulator allows them, as its development receiver and the tests listen on
     * 127.0.0.1. An explicit WEBHOOK_ALLOW_PRIVATE_URLS=true is honoured in the sandbox (a test
     * receiver on the shop's own network) and never in production (refused above).
     */
    allowPrivateUrls:
      !production &&
      (env.WEBHOOK_ALLOW_PRIVATE_URLS
        ? env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true'
        : env.MPESA_ENV === 'simulator'),
    /** In production an endpoint's URL must be https://, whatever the setting above says. */
    httpsOnly: production,
    intervalMs: env.WEBHOOK_INTERVAL_MS,
    /** One attempt's limit, from connecting to the last byte of the answer read. */
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    /**
     * How long a claimed delivery stays the claimer's: past its slowest attempt, so that no other
     * instance sends it meanwhile; a killed instance's claims lapse after it, and are sent again.
     */
    leaseMs: 2 * env.WEBHOOK_TIMEOUT_MS + 5_000,
  });
}

export type WebhookSettings = ReturnType<typeof webhookSettings>;
