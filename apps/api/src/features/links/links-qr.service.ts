/**
 * The QR codes of a link: its own (its address, for any phone's camera), and M-PESA's Dynamic QR
 * (docs/daraja-protocol.md §M8.2), which the M-PESA app's scanner reads to pay the shop's till or
 * paybill the link's amount with its reference. A payment made that way reaches the shop as a
 * till or paybill payment (C2B), not through the link's page.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { MpesaQr } from '@mpesa/shared/contract-links';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import { dynamicQr } from '../../daraja/dynamic-qr.ts';
import type { Database } from '../../db/schema.ts';
import {
  linkNotFound,
  mpesaQrFailed,
  mpesaQrLinkClosed,
  mpesaQrNeedsAmount,
  mpesaQrNotSetUp,
} from './link-refusals.ts';
import { linkAddress, qrPng, qrSvg } from './link-qr.ts';
import * as repo from './links.repository.ts';
import { listOne } from './links.service.ts';

/** Where M-PESA's QR code pays: the shop's till (buy goods) or paybill, and the name it shows. */
export interface MpesaQrSettings {
  /** MPESA_C2B_SHORTCODE (the simulator's own in simulator mode); undefined: not set up. */
  shortcode: string | undefined;
  trxCode: 'BG' | 'PB';
  /** BUSINESS_NAME; undefined: the till or paybill's number stands in. */
  merchantName: string | undefined;
}

export interface LinkQrDeps {
  db: Kysely<Database>;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The Daraja transport; undefined: Daraja is not set up for anything but prompts. */
  money: DarajaMoneyClient | undefined;
  mpesaQr: MpesaQrSettings;
  /**
   * M-PESA's QR codes made, by what was asked (the same till, amount, reference and name give the
   * same code): a cashier showing a link's code again, or a second card printed, asks Daraja once.
   */
  madeQrs: Map<string, string>;
}

/** M-PESA's QR codes kept at most (about 10 KB each); the oldest goes first. */
const MADE_QRS_KEPT = 500;

/** The PNG's side in pixels that M-PESA is asked for: enough for an A6 card printed at 150 dpi. */
export const MPESA_QR_SIZE = 400;

/** The link's own QR code, as SVG or PNG, of its address on `origin`; 404 for no such link. */
export async function linkQr(
  deps: Pick<LinkQrDeps, 'db'>,
  id: string,
  origin: string,
  format: 'svg' | 'png',
): Promise<{ code: string; image: string | Buffer }> {
  const row = await repo.findLinkById(deps.db, id);
  if (!row) throw linkNotFound();
  const address = linkAddress(origin, row.code);
  return { code: row.code, image: format === 'svg' ? await qrSvg(address) : await qrPng(address) };
}

/**
 * M-PESA's QR code of a link that takes payments with a fixed amount. Refused before Daraja is
 * asked when it cannot be made; Daraja's own refusal, silence or a non-image becomes one sentence.
 */
export async function mpesaQrOfLink(deps: LinkQrDeps, id: string): Promise<MpesaQr> {
  const link = await listOne(deps, id);
  if (!link) throw linkNotFound();
  const { shortcode, trxCode, merchantName } = deps.mpesaQr;
  if (shortcode === undefined || deps.money === undefined) throw mpesaQrNotSetUp();
  if (link.amount === null) throw mpesaQrNeedsAmount();
  if (link.status !== 'active') throw mpesaQrLinkClosed();
  const request = {
    merchantName: merchantName ?? `${trxCode === 'BG' ? 'Till' : 'Paybill'} ${shortcode}`,
    refNo: link.reference,
    amount: link.amount,
    trxCode,
    cpi: shortcode,
    size: MPESA_QR_SIZE,
  };
  const asked = JSON.stringify(request);
  try {
    let png = deps.madeQrs.get(asked);
    if (png === undefined) {
      png = await dynamicQr(deps.money.transport, request);
      if (deps.madeQrs.size >= MADE_QRS_KEPT) {
        deps.madeQrs.delete(deps.madeQrs.keys().next().value!);
      }
      deps.madeQrs.set(asked, png);
    }
    return {
      png,
      trxCode,
      shortcode,
      amount: link.amount,
      reference: link.reference,
      merchantName: request.merchantName,
    };
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    deps.log.warn(
      { kind: error.kind, errorCode: error.errorCode, linkId: id },
      `M-PESA's QR code was not made: ${error.message}`,
    );
    throw mpesaQrFailed();
  }
}
