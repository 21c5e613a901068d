/**
 * npm daraja.js 1.0.2 (axios 0.27: its https requests go to the proxy whole, in plain HTTP), as
 * its README uses it. It is given the SecurityCredential made: the one it would make from the
 * password is not ready when its constructor keeps it.
 */
import { Mpesa } from 'daraja.js';
import { input, outcome, report } from './io.mjs';

const app = new Mpesa(
  {
    consumerKey: 'key',
    consumerSecret: 'secret',
    securityCredential: input.credential,
    organizationShortCode: Number(input.shortcode),
  },
  'sandbox',
);

const push = await outcome(() =>
  app
    .stkPush()
    .amount(1)
    .callbackURL(input.urls('daraja.js/stk'))
    .phoneNumber(Number(input.phone))
    .lipaNaMpesaPassKey(input.passkey)
    .send(),
);
const b2c = await outcome(() =>
  app
    .b2c()
    .amount(100)
    .phoneNumber(254708374149)
    .shortCode(input.shortcode)
    .resultURL(input.urls('daraja.js/b2c'))
    .timeoutURL(input.urls('timeout'))
    .send(),
);
// It always sends IdentifierType 1, with the shortcode as PartyA.
const status = await outcome(() =>
  app
    .transactionStatus()
    .shortCode(input.shortcode)
    .transactionID(input.receipt)
    .resultURL(input.urls('daraja.js/status'))
    .timeoutURL(input.urls('timeout'))
    .queryStatus(),
);
report({ push, b2c, status });
