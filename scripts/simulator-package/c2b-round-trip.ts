/**
 * A C2B payment against the packed simulator, as a merchant's integration sees one: a token, the
 * shortcode's URLs registered through v2, a simulated payment, and the confirmation at a receiver
 * of ours with the payer's number masked and the amount as text.
 */
import { check } from './processes.ts';
import { accessToken, json, type Receiver } from './round-trip.ts';

const SHORTCODE = '600984';
const PAYER = '254708374149';

export async function c2bRoundTrip(base: string, receiver: Receiver) {
  const token = await accessToken(base);
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await json(response) };
  };

  // Daraja refuses a URL with "mpesa" in it (the receiver's own path has it): another path.
  const merchant = new URL(receiver.url).origin;
  const registered = await post('/mpesa/c2b/v2/registerurl', {
    ShortCode: SHORTCODE,
    ResponseType: 'Completed',
    ConfirmationURL: `${merchant}/c2b/confirmation`,
    ValidationURL: `${merchant}/c2b/validation`,
  });
  check(
    registered.status === 200 && registered.body.ResponseCode === '0',
    `register URL answered ${registered.status}: ${JSON.stringify(registered.body)}`,
  );

  const simulated = await post('/mpesa/c2b/v2/simulate', {
    ShortCode: SHORTCODE,
    CommandID: 'CustomerPayBillOnline',
    Amount: 10,
    Msisdn: PAYER,
    BillRefNumber: 'Package',
  });
  check(
    simulated.status === 200 && simulated.body.ResponseCode === '0',
    `the C2B simulate answered ${simulated.status}: ${JSON.stringify(simulated.body)}`,
  );

  const confirmation = (await receiver.next(15_000)) as Record<string, unknown>;
  check(
    confirmation.TransactionType === 'Pay Bill' &&
      confirmation.BusinessShortCode === SHORTCODE &&
      confirmation.TransAmount === '10.00' &&
      confirmation.BillRefNumber === 'Package' &&
      confirmation.MSISDN === '2547 ***** 149' &&
      typeof confirmation.TransID === 'string',
    `the C2B confirmation is not this payment's, masked (v2): ${JSON.stringify(confirmation)}`,
  );
}
