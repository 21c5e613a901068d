/**
 * npm mpesa-api 3.0.2, as its README uses it. It calls Node's own https, which takes HTTPS_PROXY
 * with NODE_USE_ENV_PROXY=1 and asks for a tunnel (CONNECT).
 */
import mpesaApi from 'mpesa-api';
import { input, outcome, report } from './io.mjs';

const mpesa = new mpesaApi.Mpesa(
  {
    clientKey: 'key',
    clientSecret: 'secret',
    initiatorPassword: input.password,
    certificatePath: input.certificate,
  },
  'sandbox',
);

const push = await outcome(() =>
  mpesa.lipaNaMpesaOnline({
    BusinessShortCode: Number(input.shortcode),
    passKey: input.passkey,
    TransactionDesc: 'Order',
    TransactionType: 'CustomerPayBillOnline',
    PartyA: input.phone,
    PartyB: input.shortcode,
    Amount: 1,
    AccountReference: 'INV-1',
    CallBackURL: input.urls('mpesa-api/stk'),
    PhoneNumber: input.phone,
  }),
);
const b2c = await outcome(() =>
  mpesa.b2c({
    Initiator: 'testapi',
    CommandID: 'BusinessPayment',
    Amount: 100,
    PartyA: input.shortcode,
    PartyB: '254708374149',
    QueueTimeOutURL: input.urls('timeout'),
    ResultURL: input.urls('mpesa-api/b2c'),
  }),
);
const status = await outcome(() =>
  mpesa.transactionStatus({
    Initiator: 'testapi',
    CommandID: 'TransactionStatusQuery',
    TransactionID: input.receipt,
    PartyA: input.shortcode,
    IdentifierType: '4',
    QueueTimeOutURL: input.urls('timeout'),
    ResultURL: input.urls('mpesa-api/status'),
  }),
);
report({ push, b2c, status });
