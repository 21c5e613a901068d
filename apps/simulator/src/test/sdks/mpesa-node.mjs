/**
 * npm mpesa-node 0.1.3 (safaricom/mpesa-node-library), as its README uses it. Its axios 0.18
 * speaks TLS straight to the proxy's port (no CONNECT), so it reaches the simulator only through
 * the proxy mode's TLS on the plain port.
 */
import Mpesa from 'mpesa-node';
import { input, outcome, report } from './io.mjs';

const mpesa = new Mpesa({
  consumerKey: 'key',
  consumerSecret: 'secret',
  environment: 'sandbox',
  shortCode: input.shortcode,
  initiatorName: 'testapi',
  lipaNaMpesaShortCode: input.shortcode,
  lipaNaMpesaShortPass: input.passkey,
  // The initiator's password, which it encrypts with the certificate at certPath.
  securityCredential: input.password,
  certPath: input.certificate,
});

const push = await outcome(() =>
  mpesa.lipaNaMpesaOnline(input.phone, 1, input.urls('mpesa-node/stk'), 'INV-1'),
);
const query = await outcome(() => mpesa.lipaNaMpesaQuery(push.data?.CheckoutRequestID));
const b2c = await outcome(() =>
  mpesa.b2c(
    input.shortcode,
    '254708374149',
    100,
    input.urls('timeout'),
    input.urls('mpesa-node/b2c'),
  ),
);
const status = await outcome(() =>
  mpesa.transactionStatus(
    input.receipt,
    input.shortcode,
    4,
    input.urls('timeout'),
    input.urls('mpesa-node/status'),
  ),
);
// Its default CommandID, BusinessToBusinessTransfer, then one Daraja documents.
const b2bDefault = await outcome(() =>
  mpesa.b2b(input.shortcode, '600000', 100, input.urls('timeout'), input.urls('mpesa-node/b2b')),
);
const b2b = await outcome(() =>
  mpesa.b2b(
    input.shortcode,
    '600000',
    100,
    input.urls('timeout'),
    input.urls('mpesa-node/b2b'),
    4,
    4,
    null,
    'BusinessPayBill',
    'INV-1',
  ),
);
report({ push, query, b2c, status, b2bDefault, b2b });
