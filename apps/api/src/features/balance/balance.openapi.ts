/** What the balance's routes answer, for the API description (openapi/responses.ts). */
import {
  balanceAskedResponseSchema,
  balanceResponseSchema,
  type BalanceReading,
} from '@mpesa/shared/contract-balance';
import { AUTH_REFUSED, CHANGE_REFUSED } from '../operators/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import { balanceNotSetUp } from './balance.service.ts';

const READ: BalanceReading = {
  id: '01JDX4Y8W7R3T6Q2N5M9K1H0GF',
  shortcode: '174379',
  status: 'read',
  askedBy: null,
  askedAt: '2026-11-29T09:00:00.000Z',
  readAt: '2026-11-29T09:00:02.000Z',
  accounts: [
    {
      name: 'Working Account',
      currency: 'KES',
      available: 498000,
      uncleared: 498000,
      reserved: 0,
      other: 0,
    },
    {
      name: 'Utility Account',
      currency: 'KES',
      available: 997700,
      uncleared: 997700,
      reserved: 0,
      other: 0,
    },
    {
      name: 'Charges Paid Account',
      currency: 'KES',
      available: -44.8,
      uncleared: -44.8,
      reserved: 0,
      other: 0,
    },
  ],
  total: 1495655.2,
  resultCode: '0',
  resultDescription: 'The service request is processed successfully.',
};

export const BALANCE_ANSWERS = {
  200: answer(balanceResponseSchema, 'The latest reading and the day’s money.', {
    read: {
      summary: 'Read, and agreeing with the day’s money',
      value: {
        success: true,
        data: {
          latest: READ,
          newer: null,
          day: {
            day: '2026-11-29',
            moneyIn: 0,
            moneyOut: 4300,
            fees: 44.8,
            change: -4344.8,
            expectedChange: -4344.8,
            agrees: true,
            from: '2026-11-29T06:00:00.000Z',
            to: READ.askedAt,
          },
        },
      },
    },
  }),
  ...refusals([AUTH_REFUSED.unauthenticated, ...PATH_REFUSALS, REFUSED.databaseUnavailable]),
};

export const BALANCE_ASKED_ANSWERS = {
  202: answer(balanceAskedResponseSchema, 'The reading as asked.', {
    asked: {
      summary: 'Asked: its accounts come with the Result',
      value: {
        success: true,
        data: {
          ...READ,
          status: 'asked',
          readAt: null,
          accounts: null,
          total: null,
          resultCode: null,
          resultDescription: null,
        },
      },
    },
  }),
  ...refusals([
    ...CHANGE_REFUSED,
    ...PATH_REFUSALS,
    refusal('No initiator is set up (MPESA_INITIATOR_NAME)', balanceNotSetUp()),
    REFUSED.databaseUnavailable,
  ]),
};
