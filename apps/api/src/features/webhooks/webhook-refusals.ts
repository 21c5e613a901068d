/** The refusals of the webhook routes (features/webhooks/webhooks.routes.ts), one factory each. */
import { WEBHOOK_ENDPOINTS_MAX } from '@mpesa/shared/contract-webhooks';
import { AppError } from '../../errors.ts';

export const webhookEndpointNotFound = () =>
  new AppError(404, 'WEBHOOK_ENDPOINT_NOT_FOUND', 'No webhook endpoint has this id.');

export const webhookDeliveryNotFound = () =>
  new AppError(404, 'WEBHOOK_DELIVERY_NOT_FOUND', 'No webhook delivery has this id.');

/** A URL webhooks may not be sent to: `message` says why (features/webhooks/url-guard.ts). */
export const webhookUrlRefused = (message: string) =>
  new AppError(400, 'WEBHOOK_URL_REFUSED', message, { field: 'url' });

export const webhookEndpointsLimit = () =>
  new AppError(
    409,
    'WEBHOOK_ENDPOINTS_LIMIT',
    `A shop may have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints: remove one first, or send more events to one.`,
  );
