import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
// Types only: a value from @mpesa/shared would bring zod into the owner's chunk for nothing.
import type {
  ChangeWebhookEndpointBody,
  CreateWebhookEndpointBody,
  WebhookDelivery,
  WebhookDeliveryListResponse,
  WebhookEndpoint,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookEventType,
} from '@mpesa/shared/contract-webhooks';
import { apiRequest } from '../../../lib/api-client';
import { adminChange } from './admin-api';

export type { WebhookDelivery, WebhookEndpoint, WebhookEventType };

/** An endpoint as changed, and its new secret when one was made (shown this once). */
export type EndpointAnswer = WebhookEndpointResponse['data'];

/**
 * Ordered as the owner reads them: a prompt's outcomes, then refunds, till payments, payouts,
 * payment links.
 */
export const WEBHOOK_EVENTS: readonly WebhookEventType[] = [
  'payment.succeeded',
  'payment.failed',
  'payment.cancelled',
  'payment.timed_out',
  'payment.unknown',
  'payment.flagged',
  'payment.refunded',
  'payment.received',
  'payout.succeeded',
  'payout.failed',
  'link.paid',
];

/** A page of deliveries: small enough to read at 360 px, "Show older" for the rest. */
const DELIVERIES_PAGE = 20;

export const webhookKeys = {
  endpoints: ['admin', 'webhooks'] as const,
  deliveries: (endpointId: string) => ['admin', 'webhooks', endpointId, 'deliveries'] as const,
};

const endpointPath = (id: string) => `/webhooks/endpoints/${encodeURIComponent(id)}`;

export function endpointsQueryOptions() {
  return queryOptions({
    queryKey: webhookKeys.endpoints,
    queryFn: async () =>
      (await apiRequest<WebhookEndpointListResponse>('/webhooks/endpoints')).data.endpoints,
  });
}

/**
 * An endpoint's deliveries, newest first, a page at a time. Asked again every few seconds while
 * one is about to be sent (waiting, or retrying within the minute), so that the owner sees it
 * delivered without reloading; not while every one is settled or hours away.
 */
export function deliveriesQueryOptions(endpointId: string) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(endpointId),
    queryFn: async ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(DELIVERIES_PAGE) });
      if (pageParam !== null) query.set('cursor', pageParam);
      return (
        await apiRequest<WebhookDeliveryListResponse>(
          `${endpointPath(endpointId)}/deliveries?${query}`,
        )
      ).data;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.deliveries.some((each) => dueSoon(each)))
        ? 2000
        : false,
  });
}

/** Waiting to be sent, or to be tried again within the minute. */
export function dueSoon(delivery: WebhookDelivery, now = Date.now()): boolean {
  if (delivery.state === 'pending') return true;
  return (
    delivery.state === 'retrying' &&
    delivery.nextAttemptAt !== null &&
    Date.parse(delivery.nextAttemptAt) - now < 60_000
  );
}

export async function createEndpoint(body: CreateWebhookEndpointBody): Promise<EndpointAnswer> {
  return (await adminChange<WebhookEndpointResponse>('/webhooks/endpoints', 'POST', body)).data;
}

export async function changeEndpoint(
  id: string,
  body: ChangeWebhookEndpointBody,
): Promise<EndpointAnswer> {
  return (await adminChange<WebhookEndpointResponse>(endpointPath(id), 'PATCH', body)).data;
}

export async function removeEndpoint(id: string): Promise<void> {
  await adminChange(endpointPath(id), 'DELETE');
}

type DeliveryAnswer = { data: { delivery: WebhookDelivery } };

/** A `webhook.test` event to this endpoint only: its delivery, waiting to be sent. */
export async function sendTestEvent(id: string): Promise<WebhookDelivery> {
  return (await adminChange<DeliveryAnswer>(`${endpointPath(id)}/test`, 'POST')).data.delivery;
}

export async function resendFailed(id: string): Promise<number> {
  return (
    await adminChange<{ data: { resent: number } }>(`${endpointPath(id)}/resend-failed`, 'POST')
  ).data.resent;
}

/** The delivery, due again now with the same event id. */
export async function resendDelivery(id: string): Promise<WebhookDelivery> {
  const path = `/webhooks/deliveries/${encodeURIComponent(id)}/resend`;
  return (await adminChange<DeliveryAnswer>(path, 'POST')).data.delivery;
}

/** The simulator's development receiver (apps/simulator, "Webhooks received"), in simulator mode. */
export function simulatorReceiver(simulatorUrl: string): string {
  return `${simulatorUrl.replace(/\/+$/, '')}/_sim/webhooks/inbox`;
}
