/**
 * Dynamic QR: a QR code a customer scans to pay, made at once (docs/daraja-protocol.md §M8.2).
 * The gate (daraja/gate.ts) has drawn the fault rules and checked the method, the token and the
 * JSON body first.
 */
import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../catalogue.ts';
import type { SimClock } from '../../clock.ts';
import type { SimulatorConfig } from '../../config.ts';
import { fail } from '../../daraja/envelope.ts';
import type { DarajaGate } from '../../daraja/gate.ts';
import { requestId } from '../../ids.ts';
import { conversationId } from '../../results/ids.ts';
import { qrPng, qrText } from './qr-image.ts';
import { checkQr } from './validation.ts';

/** The name fault rules give its request. */
export const QR_TARGET = 'qrcode';
export const QR_PATH = '/mpesa/qrcode/v1/generate';
export const QR_GENERATED = 'QR Code Successfully Generated.';

export function qrRoutes(
  app: FastifyInstance,
  gate: DarajaGate,
  { config, clock }: { config: SimulatorConfig; clock: SimClock },
) {
  app.all(QR_PATH, async (request, reply) => {
    if (await gate.faulted(QR_TARGET, request, reply)) return reply;
    const body = gate.authorizedBody(request, reply);
    if (!body) return reply;
    const checked = checkQr(body);
    if (!checked.ok) return fail(reply, invalidField(checked.field));
    const png = qrPng(qrText(checked.value), checked.value.size);
    if (!png) return fail(reply, invalidField('Size'));
    return reply.send({
      ResponseCode: config.qrResponseCode === '00' ? '00' : conversationId(clock.now()),
      RequestID: requestId(),
      ResponseDescription: QR_GENERATED,
      QRCode: png.toString('base64'),
    });
  });
}
