/**
 * What the links' routes answer, and what the API description says of them
 * (openapi/responses.ts): each refusal made by the factory the route throws.
 */
import { z } from 'zod';
import {
  linkListResponseSchema,
  mpesaQrResponseSchema,
  linkResponseSchema,
  payerLinkResponseSchema,
  type Link,
} from '@mpesa/shared/contract-links';
import { AUTH_REFUSED, CHANGE_REFUSED } from '../operators/index.ts';
import { PAYMENT_ACCEPTED } from '../payments/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import {
  linkAmountBelow,
  linkBeingPaid,
  linkExpired,
  linkNotFound,
  linkOff,
  linkPaid,
  linkTooBusy,
  mpesaQrFailed,
  mpesaQrLinkClosed,
  mpesaQrNeedsAmount,
  mpesaQrNotSetUp,
  tooManyLinks,
} from './link-refusals.ts';

const AT = '2026-11-29T09:00:00.000Z';

const SAMPLE_LINK: Link = {
  id: '5b0f7a52-2c1e-4c8e-9b7d-3f1a2e4d6c80',
  code: 'k7m2qz9rtx4p',
  amount: 1500,
  minAmount: null,
  purpose: 'Kitenge dress, size M',
  reference: 'ORDER-77',
  oneOnly: true,
  expiresAt: '2026-12-06T09:00:00.000Z',
  status: 'active',
  createdBy: 'Carl',
  createdAt: AT,
  paidCount: 0,
  collected: 0,
};

const TAGS = ['Payment links'];
const SIGNED_IN = [...CHANGE_REFUSED, ...PATH_REFUSALS];
const NOT_FOUND = refusal('No link has this id or code', linkNotFound());

export const LIST_DESCRIBED = {
  summary: 'The payment links, newest first',
  description:
    'Every link made (the latest 200), with what it shows now and what was paid through it: for the shop’s signed-in people only.',
  tags: TAGS,
};
export const LIST_ANSWERS = {
  200: answer(linkListResponseSchema, 'The links.', {
    links: { summary: 'One link', value: { success: true, data: { links: [SAMPLE_LINK] } } },
  }),
  ...refusals([AUTH_REFUSED.unauthenticated, ...PATH_REFUSALS, REFUSED.databaseUnavailable]),
};

export const ONE_DESCRIBED = {
  summary: 'One payment link, with the payments made through it',
  description: 'The shop’s signed-in people see each payer’s number whole.',
  tags: TAGS,
};
export const ONE_ANSWERS = {
  200: answer(linkResponseSchema, 'The link and its payments.', {
    paid: {
      summary: 'Paid once',
      value: {
        success: true,
        data: {
          ...SAMPLE_LINK,
          status: 'paid',
          paidCount: 1,
          collected: 1500,
          payments: [
            {
              transactionId: '0f8b2c6e-3d41-4a57-9e0b-5c2f71a8d903',
              amount: 1500,
              status: 'success',
              phoneNumber: '254712345678',
              mpesaReceiptNumber: 'UCE7RT61SV',
              createdAt: AT,
            },
          ],
        },
      },
    },
  }),
  ...refusals([
    AUTH_REFUSED.unauthenticated,
    ...PATH_REFUSALS,
    NOT_FOUND,
    REFUSED.databaseUnavailable,
  ]),
};

export const CREATE_DESCRIBED = {
  summary: 'Make a payment link',
  description:
    'An owner or a cashier makes a link: a fixed `amount`, or `minAmount` for an amount the payer chooses; what it is for; a reference (the prompt’s AccountReference, its first 12 characters); one payment (`oneOnly`) or many; and `expiresInDays`. Its address is `/pay/<code>`. LINKS_PER_HOUR limits how many one person makes in an hour.',
  tags: TAGS,
};
export const CREATE_ANSWERS = {
  201: answer(linkResponseSchema.shape.data.omit({ payments: true }), 'The link.', {
    made: { summary: 'A one-payment link', value: SAMPLE_LINK },
  }),
  ...refusals([
    ...SIGNED_IN,
    REFUSED.validation,
    REFUSED.invalidJson,
    REFUSED.bodyTooLarge,
    refusal('This operator made LINKS_PER_HOUR links this hour', tooManyLinks(30, 1200)),
    REFUSED.databaseUnavailable,
  ]),
};

export const OFF_DESCRIBED = {
  summary: 'Switch a payment link off',
  description:
    'An owner or a cashier switches a link off: its page says so and takes no payment. Payments already made stay as they are.',
  tags: TAGS,
};
export const OFF_ANSWERS = {
  200: answer(linkResponseSchema.shape.data.omit({ payments: true }), 'The link, off.', {
    off: { summary: 'Switched off', value: { ...SAMPLE_LINK, status: 'off' } },
  }),
  ...refusals([...SIGNED_IN, NOT_FOUND, REFUSED.databaseUnavailable]),
};

export const PAYER_DESCRIBED = {
  summary: 'A payment link as its payer sees it',
  description:
    'Open to anyone with the code: the shop’s name, the amount (or the minimum), what it is for, and whether it takes a payment. Nothing about anyone who paid it.',
  tags: TAGS,
};
export const PAYER_ANSWERS = {
  200: answer(payerLinkResponseSchema, 'The link.', {
    open: {
      summary: 'Taking a payment',
      value: {
        success: true,
        data: {
          code: SAMPLE_LINK.code,
          shopName: 'Mama Mboga Groceries',
          amount: 1500,
          minAmount: null,
          purpose: SAMPLE_LINK.purpose,
          reference: SAMPLE_LINK.reference,
          status: 'active',
        },
      },
    },
  }),
  ...refusals([...PATH_REFUSALS, NOT_FOUND, REFUSED.databaseUnavailable]),
};

export const PAY_DESCRIBED = {
  summary: 'Pay a payment link',
  description:
    'Open to anyone with the code: the payer gives a phone number (and the amount, when the link lets them choose), and the usual prompt follows (`POST /api/mpesa/stkpush`’s limits, Idempotency-Key and answer). A one-payment link is paid once: a second payer is refused, even at the same moment. LINK_PAYMENTS_PER_MINUTE limits the payments of one link.',
  tags: TAGS,
};
export const PAY_ANSWERS = {
  200: PAYMENT_ACCEPTED,
  ...refusals([
    ...PATH_REFUSALS,
    REFUSED.validation,
    REFUSED.invalidJson,
    REFUSED.emptyBody,
    REFUSED.invalidIdempotencyKey,
    REFUSED.idempotencyKeyInUse,
    REFUSED.idempotencyKeyReused,
    refusal('The payer’s amount is below the link’s minimum', linkAmountBelow(500)),
    NOT_FOUND,
    refusal('A one-payment link already paid', linkPaid()),
    refusal('A one-payment link whose payment is under way', linkBeingPaid()),
    refusal('The link has expired', linkExpired()),
    refusal('The shop switched the link off', linkOff()),
    REFUSED.rateLimited,
    refusal('The link took LINK_PAYMENTS_PER_MINUTE payments this minute', linkTooBusy(42)),
    REFUSED.databaseUnavailable,
  ]),
};

const QR_ADDRESS =
  'the link’s full address (`<the origin the request came to>/pay/<code>`, behind TRUST_PROXY the proxy’s X-Forwarded-Proto and X-Forwarded-Host)';
export const QR_DESCRIBED = {
  svg: {
    summary: 'A payment link’s QR code, as SVG',
    description: `A QR code of ${QR_ADDRESS}, any phone’s camera opens it: an SVG that scales to any size, for the screen and for print.`,
    tags: TAGS,
  },
  png: {
    summary: 'A payment link’s QR code, as PNG',
    description: `A QR code of ${QR_ADDRESS}, any phone’s camera opens it: a PNG of 8 pixels a module, to download and send.`,
    tags: TAGS,
  },
};
const QR_REFUSED = refusals([
  AUTH_REFUSED.unauthenticated,
  ...PATH_REFUSALS,
  NOT_FOUND,
  REFUSED.databaseUnavailable,
]);
/** Sent as it is, through no serializer: described as the text or bytes it is. */
const image = (type: 'image/svg+xml' | 'image/png', description: string, example: string) => ({
  description,
  content: {
    [type]: {
      schema: z.custom<string | Buffer>().meta({
        type: 'string',
        ...(type === 'image/png' ? { format: 'binary' } : {}),
        examples: [example],
      }),
    },
  },
});
export const QR_ANSWERS = {
  svg: {
    200: image(
      'image/svg+xml',
      'The QR code, as SVG (a viewBox, no fixed size).',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 37 37" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h37v37H0z"/><path stroke="#000000" d="M4 4.5h7m1 0h1…"/></svg>',
    ),
    ...QR_REFUSED,
  },
  png: {
    200: image('image/png', 'The QR code, as PNG.', '(a PNG image, 296 pixels square)'),
    ...QR_REFUSED,
  },
};

export const MPESA_QR_DESCRIBED = {
  summary: 'M-PESA’s own QR code for a payment link',
  description:
    'An owner or a cashier asks M-PESA (Daraja’s Dynamic QR) for a QR code that the M-PESA app’s scanner reads to pay the shop’s till (`BG`, buy goods) or paybill (`PB`) the link’s amount, with the link’s reference: a PNG, base64. The till or paybill is MPESA_C2B_SHORTCODE (the simulator’s own on the simulator), a till when MPESA_TRANSACTION_TYPE is CustomerBuyGoodsOnline; the name shown is BUSINESS_NAME. Only for a link with a fixed amount that takes payments. A payment made this way reaches the shop as a till or paybill payment, not through the link’s page.',
  tags: TAGS,
};
export const MPESA_QR_ANSWERS = {
  200: answer(mpesaQrResponseSchema, 'The QR code M-PESA made.', {
    made: {
      summary: 'Made for a paybill',
      value: {
        success: true,
        data: {
          png: 'iVBORw0KGgoAAAANSUhEUgAAAZAAAAGQCAAAAACl1GkQ…',
          trxCode: 'PB',
          shortcode: '600100',
          amount: 1500,
          reference: 'ORDER-77',
          merchantName: 'Mama Mboga Groceries',
        },
      },
    },
  }),
  ...refusals([
    ...SIGNED_IN,
    NOT_FOUND,
    refusal('No till or paybill is set up for it (MPESA_C2B_SHORTCODE)', mpesaQrNotSetUp()),
    refusal('The payer chooses the link’s amount', mpesaQrNeedsAmount()),
    refusal('The link is paid, expired or switched off', mpesaQrLinkClosed()),
    refusal('M-PESA refused, did not answer, or gave no image', mpesaQrFailed()),
    REFUSED.databaseUnavailable,
  ]),
};
