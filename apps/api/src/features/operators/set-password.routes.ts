/**
 * `POST /api/auth/set-password`: an operator sets their password with a one-time link
 * (password-links.service.ts). Open, since the link is the key, but refused cross-site (a page on
 * another site could otherwise set a password it chose with a stolen link) and limited per address.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { setPasswordBodySchema } from '@mpesa/shared/contract-admin';
import { clientAddress, limitKeyFor } from '../../lib/client-address.ts';
import { MANAGE_ANSWERS } from './manage.openapi.ts';
import { refuseCrossSite } from './cross-site.ts';
import { setPasswordByLink, type SetPasswordDeps } from './password-links.service.ts';

export interface SetPasswordRoutesOptions {
  deps: SetPasswordDeps;
  corsOrigins: '*' | readonly string[];
}

export const setPasswordRoutes: FastifyPluginAsyncZod<SetPasswordRoutesOptions> = async (
  app,
  { deps, corsOrigins },
) => {
  app.post(
    '/auth/set-password',
    {
      onRequest: refuseCrossSite(corsOrigins),
      schema: {
        summary: 'Set a password with a one-time link',
        description:
          'The token is the part of the link after `#`. Sets the password, voids the link and ends ' +
          'every session the operator had; they then sign in. An unknown, used or expired link is ' +
          'one answer (400 PASSWORD_LINK_INVALID). Attempts are limited per address.',
        tags: ['Operators'],
        body: setPasswordBodySchema,
        response: MANAGE_ANSWERS.setPassword,
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const address = clientAddress(request);
      const data = await setPasswordByLink(deps, {
        ...request.body,
        address,
        addressKey: limitKeyFor(address),
      });
      return { success: true as const, data };
    },
  );
};
