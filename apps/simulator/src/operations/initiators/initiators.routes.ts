/**
 * The initiators' part of the control API (/_sim/): the certificate a SecurityCredential is made
 * with, and the initiators' failures and locks (docs/daraja-protocol.md §M2.6).
 */
import { z } from 'zod';
import type { SimulatorConfig } from '../../config.ts';
import type { ControlApp } from '../operation.ts';
import type { InitiatorBook } from './initiator-book.ts';

/** The name a browser or `curl -OJ` saves the certificate under. */
export const CERTIFICATE_NAME = 'daraja-simulator-certificate.pem';

/** GET /_sim/initiators's answer. */
export function initiatorsShown(config: SimulatorConfig, initiators: InitiatorBook) {
  return {
    lockAfter: config.initiatorLockAfter,
    strictCredentials: config.strictCredentials,
    initiators: initiators.list(),
  };
}

export function noSuchInitiator(config: SimulatorConfig) {
  return `No such initiator: the simulator knows ${config.initiatorName} (SIM_INITIATOR_NAME)`;
}

export function initiatorsControlRoutes(
  app: ControlApp,
  config: SimulatorConfig,
  initiators: InitiatorBook,
) {
  app.get('/certificate', async (_request, reply) =>
    reply
      .type('application/x-pem-file')
      .header('Content-Disposition', `inline; filename="${CERTIFICATE_NAME}"`)
      .send(initiators.key.certificate),
  );

  app.get('/initiators', async () => initiatorsShown(config, initiators));

  app.post(
    '/initiators/:name/unlock',
    { schema: { params: z.object({ name: z.string() }) } },
    async (request, reply) => {
      const { name } = request.params;
      if (!initiators.unlock(name)) {
        return reply.code(404).send({ error: noSuchInitiator(config) });
      }
      return initiators.list().find((state) => state.name === name);
    },
  );
}
