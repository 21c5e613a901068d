/**
 * Dynamic QR (docs/daraja-protocol.md §M8.2): a QR code that the M-PESA app's scanner reads to pay
 * a till (`BG`) or a paybill (`PB`) an amount with a reference, made at once (no callback). Daraja
 * writes a conversation id into `ResponseCode` in its docs and `"00"` in the libraries' captures,
 * so success is read as "a PNG came back", as §M8.2 advises.
 */
import { z } from 'zod';
import { DarajaError } from './daraja-error.ts';
import { darajaText, type DarajaTransport } from './transport.ts';

export const DYNAMIC_QR_PATH = '/mpesa/qrcode/v1/generate';

export interface DynamicQrRequest {
  merchantName: string;
  refNo: string;
  amount: number;
  trxCode: 'BG' | 'PB';
  /** The till or paybill paid. */
  cpi: string;
  /** The PNG's side in pixels. */
  size: number;
}

/** A PNG's first eight bytes, base64: what a `QRCode` that is an image starts with. */
const PNG_BASE64_START = 'iVBORw0KGgo';
/** Far above a 1000 px code's few kilobytes: anything longer is not an answer we pass on. */
const MAX_BASE64 = 2_000_000;

const answerSchema = z.looseObject({
  QRCode: z
    .string()
    .max(MAX_BASE64)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .refine((value) => value.startsWith(PNG_BASE64_START)),
  ResponseDescription: darajaText.optional(),
});

/** The code as a base64 PNG; a DarajaError when Daraja refused or gave no image. */
export async function dynamicQr(
  transport: DarajaTransport,
  request: DynamicQrRequest,
): Promise<string> {
  const answer = await transport.postJson(DYNAMIC_QR_PATH, {
    MerchantName: request.merchantName,
    RefNo: request.refNo,
    Amount: request.amount,
    TrxCode: request.trxCode,
    CPI: request.cpi,
    // A string in Daraja's sample.
    Size: String(request.size),
  });
  const parsed = answerSchema.safeParse(answer.body);
  if (answer.status !== 200 || !parsed.success) {
    throw new DarajaError('rejected', `Dynamic QR gave HTTP ${answer.status} without a QR code`, {
      httpStatus: answer.status,
    });
  }
  return parsed.data.QRCode;
}
