/** The initiators' part of the control API (initiators.routes.ts) as the simulator's description shows it. */
import { z } from 'zod';
import type { SimulatorConfig } from '../../config.ts';
import type { RouteDocs } from '../../route-docs.ts';
import { CONTROL_TAGS, errors, shown } from '../../routes/docs-kit.ts';
import { noSuchInitiator } from './initiators.routes.ts';

const CERTIFICATE_EXAMPLE =
  '-----BEGIN CERTIFICATE-----\nMIIDazCCAlOgAwIBAgIU…\n-----END CERTIFICATE-----\n';

export function initiatorsControlDocs(config: SimulatorConfig): Record<string, RouteDocs> {
  const initiator = { name: config.initiatorName, failures: 0, locked: false };
  return {
    'GET /_sim/certificate': {
      summary: 'The certificate to make a SecurityCredential with',
      description:
        'The simulator’s own X.509 certificate (RSA 2048), as PEM: encrypt the initiator’s ' +
        'password with it, RSA with PKCS#1 v1.5 padding, and send the result in base64 as ' +
        '`SecurityCredential`, as with Safaricom’s certificate. Save it where your client reads ' +
        'its certificate. The same file is in the package, at `dist/keys/`.',
      tags: CONTROL_TAGS,
      response: {
        200: {
          description: 'The certificate, PEM.',
          content: {
            'application/x-pem-file': {
              schema: z.string().meta({ examples: [CERTIFICATE_EXAMPLE] }),
            },
          },
        },
        ...errors({}),
      },
    },
    'GET /_sim/initiators': {
      summary: 'The initiators, their failed credentials and locks',
      description:
        '`failures` counts wrong credentials in a row; at `lockAfter` (SIM_INITIATOR_LOCK_AFTER; ' +
        '0: never) the initiator is locked, and every request it makes fails with 8006 until it ' +
        'is unlocked or the simulator reset.',
      tags: CONTROL_TAGS,
      response: {
        200: shown('The settings that apply, and each initiator.', {
          initiators: {
            summary: 'The sandbox’s initiator, locked',
            value: {
              lockAfter: config.initiatorLockAfter,
              strictCredentials: config.strictCredentials,
              initiators: [{ ...initiator, failures: config.initiatorLockAfter, locked: true }],
            },
          },
        }),
        ...errors({}),
      },
    },
    'POST /_sim/initiators/:name/unlock': {
      summary: 'Unlock an initiator and forget its failures',
      tags: CONTROL_TAGS,
      response: {
        200: shown('The initiator, unlocked.', {
          unlocked: { summary: 'Unlocked', value: initiator },
        }),
        ...errors({
          404: {
            unknown: { summary: 'No initiator has this name', error: noSuchInitiator(config) },
          },
        }),
      },
    },
  };
}
