import { queryOptions } from '@tanstack/react-query';
// Types only: a value from the contracts would bring zod into this screen's download.
import type {
  Link,
  LinkListResponse,
  MpesaQr,
  MpesaQrResponse,
  LinkWithPayments,
  PayerLink,
  PayerLinkResponse,
} from '@mpesa/shared/contract-links';
import type { InitiatePaymentResponse } from '@mpesa/shared/contract';
import { apiRequest, apiUrl } from '../../../lib/api-client';
import { csrfHeaders } from '../../auth/api/auth-api';
import { PAYMENT_TIMEOUT_MS } from '../../payments/api/initiate-payment';

export type { Link, LinkWithPayments, MpesaQr, PayerLink };

export const linkKeys = {
  list: ['links'] as const,
  one: (id: string) => ['links', id] as const,
  payer: (code: string) => ['pay', code] as const,
};

/** The links, newest first. */
export function linksQueryOptions() {
  return queryOptions({
    queryKey: linkKeys.list,
    queryFn: async () => (await apiRequest<LinkListResponse>('/links')).data.links,
  });
}

/** One link with its payments; asked again every 5 s while one of them is pending. */
export function linkQueryOptions(id: string) {
  return queryOptions({
    queryKey: linkKeys.one(id),
    queryFn: async () =>
      (await apiRequest<{ data: LinkWithPayments }>(`/links/${encodeURIComponent(id)}`)).data,
    refetchInterval: (query) =>
      query.state.data?.payments.some((payment) => payment.status === 'pending') ? 5000 : false,
  });
}

/** The link as its payer sees it. */
export function payerLinkQueryOptions(code: string) {
  return queryOptions({
    queryKey: linkKeys.payer(code),
    queryFn: async () =>
      (await apiRequest<PayerLinkResponse>(`/pay/${encodeURIComponent(code)}`)).data,
    retry: false,
  });
}

export interface LinkFields {
  amount?: number;
  minAmount?: number;
  purpose: string;
  reference: string;
  oneOnly: boolean;
  expiresInDays?: number;
}

export async function createLink(fields: LinkFields): Promise<Link> {
  return apiRequest<Link>('/links', { method: 'POST', body: fields, headers: await csrfHeaders() });
}

export async function switchOffLink(id: string): Promise<Link> {
  return apiRequest<Link>(`/links/${encodeURIComponent(id)}/off`, {
    method: 'POST',
    body: {},
    headers: await csrfHeaders(),
  });
}

/** Pays the link under `idempotencyKey`: sent again with the same details, one prompt. */
export function payLink(
  code: string,
  body: { phoneNumber: string; amount?: number },
  idempotencyKey: string,
): Promise<InitiatePaymentResponse> {
  return apiRequest<InitiatePaymentResponse>(`/pay/${encodeURIComponent(code)}`, {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    timeoutMs: PAYMENT_TIMEOUT_MS,
  });
}

/** Where a link's own QR code is, as SVG (shown and printed) or PNG (downloaded). */
export const linkQrUrl = (id: string, format: 'svg' | 'png') =>
  apiUrl(`/links/${encodeURIComponent(id)}/qr.${format}`);

/** M-PESA's own QR code for a link with a fixed amount (Daraja's Dynamic QR). */
export async function mpesaQrOf(id: string): Promise<MpesaQr> {
  return (
    await apiRequest<MpesaQrResponse>(`/links/${encodeURIComponent(id)}/mpesa-qr`, {
      method: 'POST',
      body: {},
      headers: await csrfHeaders(),
    })
  ).data;
}
