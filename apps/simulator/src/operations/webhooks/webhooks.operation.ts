/**
 * The development receiver of the shop's webhooks (docs/webhooks.md, "The development receiver"),
 * as an operation of its own although it is no Daraja API: so that POST /_sim/reset empties its
 * inbox, the event stream (GET /_sim/events) shows each webhook as it comes to the virtual phone's
 * page, and the description shows its routes. It has no Daraja routes and SIM_STATE keeps nothing
 * of it: what it shows is for a developer's eyes, as the request log is.
 */
import { z } from 'zod';
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { WebhookInbox } from './webhook-inbox.ts';
import { webhookControlDocs } from './webhooks.docs.ts';
import { webhookRoutes } from './webhooks.routes.ts';

export interface RunningWebhooks extends RunningOperation {
  inbox: WebhookInbox;
}

const WebhooksKeptSchema = z.object({});

function start({ clock }: OperationContext): RunningWebhooks {
  const inbox = new WebhookInbox(() => clock.now());
  return {
    inbox,
    darajaRoutes: () => {},
    controlRoutes: (app) => webhookRoutes(app, inbox),
    snapshot: () => ({}),
    restore: () => {},
    keep: () => () => {},
    hello: () => ({ webhooks: inbox.list() }),
    subscribe(send) {
      const onEntry = (entry: unknown) => send('webhook', entry);
      const onCleared = () => send('webhooks-cleared', {});
      inbox.on('entry', onEntry);
      inbox.on('cleared', onCleared);
      return () => {
        inbox.off('entry', onEntry);
        inbox.off('cleared', onCleared);
      };
    },
    watch: () => () => {},
    reset: () => inbox.clear(),
  };
}

export const webhooks: DarajaOperation<RunningWebhooks, typeof WebhooksKeptSchema> = {
  name: 'webhooks',
  faultTargets: [],
  kept: WebhooksKeptSchema,
  docs: () => ({}),
  controlDocs: webhookControlDocs,
  start,
};
