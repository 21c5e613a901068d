/**
 * What C2B posts to the merchant, and how the simulator reads the merchant's validation answer
 * (docs/daraja-protocol.md §M3.3, §M3.4, §M3.6). The validation request and the confirmation have
 * one flat shape, every value a string.
 */
import { createHash } from 'node:crypto';
import { accepted, type Sent } from '../../callbacks.ts';
import { eatNumber } from '../../ids.ts';
import { darajaAmount } from '../../money/amounts.ts';
import type { C2bPayment, C2bVersion } from './c2b-kept.ts';

/**
 * The payer's number as the registration's version sends it (§M3.3): v1 the lower-case hex
 * SHA-256 of the 12 digits, unsalted, as the 2025 capture shows; v2 masked as the v2 docs page
 * writes it, `2547 ***** 126`: the first four digits, five stars, the last three, spaced. (The
 * register page's `25470****149` is the other form the docs show; neither was captured.)
 */
export function shownMsisdn(msisdn: string, version: C2bVersion): string {
  if (version === 'v1') return createHash('sha256').update(msisdn).digest('hex');
  return `${msisdn.slice(0, 4)} ***** ${msisdn.slice(-3)}`;
}

/** A customer's name as the notifications split it: first, middle (all between), last. */
export function nameParts(name: string): [string, string, string] {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return [words[0] ?? '', '', ''];
  return [words[0]!, words.slice(1, -1).join(' '), words.at(-1)!];
}

/**
 * The validation request (`OrgAccountBalance` blank, §M3.3) or the confirmation (the collection
 * account's balance once paid, and the ThirdPartyTransID the merchant's validation answer gave).
 */
export function notificationBody(
  payment: C2bPayment,
  kind: 'validation' | 'confirmation',
  customerName: string,
) {
  const [FirstName, MiddleName, LastName] = nameParts(customerName);
  const version = payment.registration?.version ?? 'v1';
  return {
    TransactionType: payment.commandId === 'CustomerBuyGoodsOnline' ? 'Buy Goods' : 'Pay Bill',
    TransID: payment.transId,
    TransTime: String(eatNumber(new Date(payment.at))),
    TransAmount: darajaAmount(payment.amount),
    BusinessShortCode: payment.shortcode,
    BillRefNumber: payment.billRefNumber,
    InvoiceNumber: '',
    OrgAccountBalance: kind === 'validation' ? '' : (payment.orgAccountBalance ?? ''),
    ThirdPartyTransID: kind === 'validation' ? '' : payment.thirdPartyTransId,
    MSISDN: shownMsisdn(payment.msisdn, version),
    FirstName,
    MiddleName,
    LastName,
  };
}

/** The merchant's validation verdict: accepted (with its ThirdPartyTransID), rejected, or none. */
export type Verdict =
  | { kind: 'accept'; resultCode: string; thirdPartyTransId: string }
  | { kind: 'reject'; resultCode: string }
  | { kind: 'none' };

/**
 * Reads the merchant's answer (§M3.4): `ResultCode` 0 or "0" accepts, any other value rejects
 * (C2B00011 to C2B00016 are the documented ones). No answer in time, a non-2xx, a body that is not
 * a JSON object, or one without a ResultCode is no answer: the registered ResponseType decides.
 * The docs leave what counts as "no response" open; these are the simulator's choice.
 */
export function verdict(answer: Sent | null): Verdict {
  if (answer === null || !accepted(answer) || answer.responseBody === null) return { kind: 'none' };
  let body: unknown;
  try {
    body = JSON.parse(answer.responseBody);
  } catch {
    return { kind: 'none' };
  }
  if (typeof body !== 'object' || body === null || !('ResultCode' in body)) return { kind: 'none' };
  const { ResultCode, ThirdPartyTransID } = body as Record<string, unknown>;
  if (typeof ResultCode !== 'string' && typeof ResultCode !== 'number') return { kind: 'none' };
  const resultCode = String(ResultCode).trim();
  if (resultCode !== '0') return { kind: 'reject', resultCode };
  const thirdParty =
    typeof ThirdPartyTransID === 'string' || typeof ThirdPartyTransID === 'number'
      ? String(ThirdPartyTransID)
      : '';
  return { kind: 'accept', resultCode, thirdPartyTransId: thirdParty };
}
