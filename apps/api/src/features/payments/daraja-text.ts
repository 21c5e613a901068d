/**
 * Daraja's AccountReference (max 12) and TransactionDesc (max 13) are shown on the payer's phone and
 * choke on some characters (docs/daraja-protocol.md §3.1, §8). Our record keeps the full text; Daraja gets a
 * shortened, plain copy.
 */
import { PROMPT_REFERENCE_LENGTH } from '@mpesa/shared';

function plainCopy(text: string, maxLength: number, fallback: string): string {
  const plain = text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 .,\-_#/]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, maxLength)
    .trim();
  return plain === '' ? fallback : plain;
}

export const ACCOUNT_REFERENCE_MAX = PROMPT_REFERENCE_LENGTH;
export const TRANSACTION_DESC_MAX = 13;

export function accountReferenceFor(reference: string): string {
  return plainCopy(reference, ACCOUNT_REFERENCE_MAX, 'Payment');
}

export function transactionDescFor(description: string): string {
  return plainCopy(description, TRANSACTION_DESC_MAX, 'Payment');
}
