/**
 * `GET /api/mpesa/transactions/:id`: one payment, as the specification's detail screen reads it.
 * Where the history is for operators it speaks to the payer (their number in part) or to the
 * shop (the merchant's view); where it is open, to all alike, and to a signed-in operator as the
 * shop.
 */
import { z } from 'zod';
import { guardedSchema, type Gate, accessOf, uncached } from '../operators/index.ts';
import { payersView, getMerchantView, getTransaction } from '../payments/index.ts';
import { ANSWERS, DESCRIBED } from './history.openapi.ts';
import type { PaymentDeps } from '../payments/index.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

type RoutesApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * GET /mpesa/transactions/:id: open to anyone with the link. With HISTORY_ACCESS=operators it
 * speaks to the payer (their number in part), and to the shop (the merchant's view) when an
 * operator or a key that reads payments asks.
 */
export function paymentPageRoute(
  app: RoutesApp,
  deps: PaymentDeps,
  gate: Gate | undefined,
  openRecogniser: Gate | undefined,
): void {
  const recognise = gate ?? openRecogniser;
  app.get(
    '/mpesa/transactions/:id',
    {
      // The payer's view or the merchant's, by the credential sent: kept by no cache on the way.
      ...(recognise
        ? { onRequest: [uncached(['Cookie', 'Authorization']), recognise.onRequest] }
        : {}),
      schema: guardedSchema(
        {
          ...DESCRIBED.byId,
          // Any text: an id that cannot be ours (empty, too long) is simply not found.
          params: z.object({
            id: z.string().describe('The `transactionId` the payment was started with'),
          }),
          response: ANSWERS.byId,
        },
        gate?.rule,
        { open: true },
      ),
    },
    async (request) => {
      const { id } = request.params;
      const reader = accessOf(request);
      if (!gate && reader?.kind !== 'operator') {
        return { success: true as const, data: await getTransaction(deps, id) };
      }
      if (!reader) {
        return { success: true as const, data: payersView(await getTransaction(deps, id)) };
      }
      const owner = reader.kind === 'operator' && reader.role === 'owner';
      return {
        success: true as const,
        data: await getMerchantView(deps, id, { owner, reviews: gate !== undefined }),
      };
    },
  );
}
