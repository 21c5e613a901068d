/**
 * The balance M-PESA holds for the shop (issue 37): Account Balance asked on demand and on a
 * schedule (docs/daraja-protocol.md §M6), each asking kept before it is sent and its Result applied
 * when it comes (callbacks/kept-callback.ts first); and the business day's money in, out and fees
 * beside the change in balance between the day's first and latest readings.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { BalanceDay, BalanceReading } from '@mpesa/shared/contract-balance';
import { settleKeptCallback } from '../../callbacks/kept-callback.ts';
import { keepResult } from '../../callbacks/result-callback.ts';
import type { CallbackUrlFor } from '../../callbacks/callback-paths.ts';
import { lookUpOvertaken } from '../../callbacks/overtaken-lookup.ts';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import { resultAckSchema } from '../../daraja/reversal.ts';
import { parameter } from '../../daraja/result-parser.ts';
import type { BalanceReadingRow, CallbackOutcome, Database } from '../../db/schema.ts';
import { businessDayOf, nextDay, startOfBusinessDay } from '../../lib/business-day.ts';
import { sortableId } from '../../lib/sortable-id.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import { AppError } from '../../errors.ts';
import * as repo from './balance.repository.ts';
import { eatTime, inShillings, readBalance, type AccountInCents } from './read-balance.ts';

export const BALANCE_PATH = '/mpesa/accountbalance/v1/query';

export interface BalanceDeps {
  db: Kysely<Database>;
  now: () => Date;
  log: FastifyBaseLogger;
  money: DarajaMoneyClient | undefined;
  callbackUrlFor: CallbackUrlFor;
  /** The shortcode whose balance is read (MPESA_B2C_SHORTCODE), and the prompts' (MPESA_PARTY_B). */
  shortcode: string;
  promptShortcode: string;
  timeZone: string;
}

export const balanceNotSetUp = () =>
  new AppError(
    409,
    'PAYOUTS_NOT_SET_UP',
    'The balance cannot be read on this server: it needs the M-PESA initiator’s name and credential (MPESA_INITIATOR_NAME).',
  );

const fit = (text: string, max: number) => text.slice(0, max);

const totalOf = (accounts: AccountInCents[]) =>
  accounts.reduce((sum, account) => sum + account.available, 0);

export function toReadingDto(row: BalanceReadingRow): BalanceReading {
  const accounts = row.accounts === null ? null : (JSON.parse(row.accounts) as AccountInCents[]);
  return {
    id: row.id,
    shortcode: row.shortcode,
    status: row.status,
    askedBy: row.asked_by,
    askedAt: row.asked_at,
    readAt: row.read_at,
    accounts: accounts?.map(inShillings) ?? null,
    total: accounts === null ? null : totalOf(accounts) / 100,
    resultCode: row.result_code,
    resultDescription: row.result_description,
  };
}

/** Asks M-PESA for the balance now: the reading as it stands (asked, or failed at once). */
export async function askBalance(deps: BalanceDeps, by: string | null): Promise<BalanceReading> {
  if (!deps.money?.canReverse) throw balanceNotSetUp();
  const id = sortableId();
  const at = deps.now().toISOString();
  await repo.insertReading(deps.db, {
    id,
    shortcode: deps.shortcode,
    status: 'asked',
    asked_by: by,
    asked_at: at,
  });
  const initiator = deps.money.asInitiator(deps.shortcode);
  try {
    const answer = await deps.money.transport.postJson(BALANCE_PATH, {
      Initiator: initiator.initiatorName,
      SecurityCredential: initiator.securityCredential,
      CommandID: 'AccountBalance',
      PartyA: deps.shortcode,
      IdentifierType: '4',
      Remarks: 'Balance',
      QueueTimeOutURL: deps.callbackUrlFor('queue-timeout'),
      ResultURL: deps.callbackUrlFor('balance'),
    });
    const ack = resultAckSchema.safeParse(answer.body);
    if (answer.status !== 200 || !ack.success || ack.data.ResponseCode !== '0') {
      throw new DarajaError(
        'unknown',
        `Account balance gave HTTP ${answer.status} without an acknowledgement`,
      );
    }
    await repo.updateReading(deps.db, id, {
      originator_conversation_id: ack.data.OriginatorConversationID,
      conversation_id: ack.data.ConversationID,
    });
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    deps.log.warn(
      { kind: error.kind, errorCode: error.errorCode },
      'account balance request failed',
    );
    // Reading a balance moves no money: a request whose answer was lost is simply asked again.
    await repo.updateReading(deps.db, id, {
      status: 'failed',
      result_code: error.errorCode?.slice(0, MAX_LENGTH.resultCode) ?? null,
      result_description: fit(
        `M-PESA did not answer the request for the balance: ${error.message}`,
        MAX_LENGTH.resultDescription,
      ),
      read_at: deps.now().toISOString(),
    });
  }
  const row = await repo.findReadingById(deps.db, id);
  return toReadingDto(row!);
}

/** Keeps an Account Balance Result, then applies it to the reading it answers. */
export async function takeBalanceResult(
  deps: BalanceDeps,
  received: { raw: string; ip: string | null },
): Promise<CallbackOutcome> {
  const at = deps.now().toISOString();
  const kept = await keepResult(deps, { kind: 'balance', raw: received.raw, ip: received.ip, at });
  if (kept === 'invalid') return 'invalid';
  const { callbackId, result } = kept;
  const reading = await lookUpOvertaken(() => repo.findReadingByConversation(deps.db, result));
  if (!reading) {
    await settleKeptCallback(deps.db, callbackId, 'orphan');
    return 'orphan';
  }
  const value = parameter(result, 'AccountBalance');
  const ok = result.resultCode === '0' && value !== null;
  const read = ok ? readBalance(value) : undefined;
  if (read && read.unread.length > 0)
    deps.log.warn({ unread: read.unread }, 'balance parts not read');
  const changed = await repo.updateReading(deps.db, reading.id, {
    status: ok ? 'read' : 'failed',
    accounts: read ? JSON.stringify(read.accounts) : null,
    result_code: fit(result.resultCode, MAX_LENGTH.resultCode),
    result_description: fit(result.resultDesc, MAX_LENGTH.resultDescription),
    completed_at: eatTime(parameter(result, 'BOCompletedTime')),
    read_at: at,
  });
  const outcome = changed ? 'applied' : 'duplicate';
  await settleKeptCallback(deps.db, callbackId, outcome);
  return outcome;
}

/** The business day's money beside the change in balance between its first and latest readings. */
export async function balanceDay(deps: BalanceDeps): Promise<BalanceDay> {
  const day = businessDayOf(deps.now(), deps.timeZone);
  const start = startOfBusinessDay(day, deps.timeZone);
  const end = startOfBusinessDay(nextDay(day), deps.timeZone);
  const readings = await repo.readingsBetween(deps.db, start, end);
  const first = readings[0];
  const last = readings.length > 1 ? readings[readings.length - 1] : undefined;
  const from = first?.asked_at ?? start;
  const to = last?.asked_at ?? end;
  const money = await repo.moneyBetween(deps.db, deps.shortcode, deps.promptShortcode, from, to);
  const total = (row: BalanceReadingRow) =>
    totalOf(JSON.parse(row.accounts ?? '[]') as AccountInCents[]);
  const change = first && last ? total(last) - total(first) : null;
  const expected = money.inCents - money.outCents - money.feeCents;
  return {
    day,
    moneyIn: money.inCents / 100,
    moneyOut: money.outCents / 100,
    fees: money.feeCents / 100,
    change: change === null ? null : change / 100,
    expectedChange: change === null ? null : expected / 100,
    agrees: change === null ? null : change === expected,
    from: first?.asked_at ?? null,
    to: last?.asked_at ?? null,
  };
}

/**
 * The latest reading M-PESA answered (else the last asked), a reading asked since that is still
 * awaited or failed (`newer`), and the day's money.
 */
export async function latestBalance(deps: BalanceDeps) {
  const [latest, newest] = await Promise.all([
    repo.latestReading(deps.db),
    repo.newestReading(deps.db),
  ]);
  const newer = newest && newest.id !== latest?.id ? toReadingDto(newest) : null;
  return { latest: latest ? toReadingDto(latest) : null, newer, day: await balanceDay(deps) };
}
