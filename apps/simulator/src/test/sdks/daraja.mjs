/**
 * npm daraja 1.0.1, as its README uses it. Its `request` asks for a tunnel (CONNECT); it makes
 * the SecurityCredential with Safaricom's certificate, which the simulator takes unchecked.
 */
import daraja from 'daraja';
import { input, outcome, report } from './io.mjs';

const mpesa = new daraja.Mpesa(Number(input.shortcode), 'key', 'secret', 'sandbox');

const push = await outcome(() =>
  mpesa.mpesaExpressRequest(
    1,
    Number(input.phone),
    Number(input.shortcode),
    input.passkey,
    'CustomerPayBillOnline',
    'INV-1',
    'Order',
    input.urls('daraja/stk'),
  ),
);
const b2c = await outcome(() =>
  mpesa.b2cPaymentRequest(
    100,
    254708374149,
    'testapi',
    input.password,
    'BusinessPayment',
    'Payout',
    'Payout',
    input.urls('daraja/b2c'),
    input.urls('timeout'),
  ),
);
const status = await outcome(() =>
  mpesa.transactionStatusRequest(
    input.receipt,
    4,
    'testapi',
    input.password,
    'Status',
    'Status',
    input.urls('daraja/status'),
    input.urls('timeout'),
  ),
);
report({ push, b2c, status });
