/**
 * A B2C payout against the packed simulator, as a Daraja client makes one: a token, the
 * SecurityCredential made with the certificate at GET /_sim/certificate, the payment request, and
 * the Result at a receiver of ours with the payout's receipt.
 */
import crypto from 'node:crypto';
import { check } from './processes.ts';
import { accessToken, json, type Receiver } from './round-trip.ts';

const CUSTOMER = '254705912645';

export async function b2cRoundTrip(base: string, receiver: Receiver) {
  const token = await accessToken(base);
  const certificate = await (await fetch(`${base}/_sim/certificate`)).text();
  const credential = crypto
    .publicEncrypt(
      { key: certificate, padding: crypto.constants.RSA_PKCS1_PADDING },
      Buffer.from('Safaricom999!*!'),
    )
    .toString('base64');
  const originator = `package-check-${Date.now()}`;
  const request = await fetch(`${base}/mpesa/b2c/v3/paymentrequest`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      OriginatorConversationID: originator,
      InitiatorName: 'testapi',
      SecurityCredential: credential,
      CommandID: 'BusinessPayment',
      Amount: '10',
      PartyA: '600992',
      PartyB: CUSTOMER,
      Remarks: 'Package check',
      QueueTimeOutURL: receiver.url,
      ResultURL: receiver.url,
      Occassion: 'Check',
    }),
  });
  const accepted = await json(request);
  check(
    request.status === 200 &&
      accepted.ResponseCode === '0' &&
      accepted.OriginatorConversationID === originator,
    `the B2C payment request answered ${request.status}: ${JSON.stringify(accepted)}`,
  );
  const { Result: result } = (await receiver.next(15_000)) as {
    Result?: {
      ResultCode?: number;
      ConversationID?: string;
      TransactionID?: string;
      ResultParameters?: { ResultParameter?: { Key: string; Value?: unknown }[] };
    };
  };
  const parameters = Object.fromEntries(
    (result?.ResultParameters?.ResultParameter ?? []).map((item) => [item.Key, item.Value]),
  );
  check(
    result?.ConversationID === accepted.ConversationID &&
      result?.ResultCode === 0 &&
      typeof result?.TransactionID === 'string' &&
      parameters.TransactionReceipt === result?.TransactionID &&
      parameters.TransactionAmount === 10,
    `the B2C Result is not a paid payout for this request: ${JSON.stringify(result)}`,
  );
}
