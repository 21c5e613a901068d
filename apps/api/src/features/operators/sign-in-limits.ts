/**
 * The sign-in limits (docs/decisions/005-sign-in-limits.md): failures count against the name from
 * this address, the address, and the name from every address, each over a sliding window
 * (limits/rate-limit.repository.ts). Past either of the first two this address is refused; past
 * the third only an address the operator has signed in from is let in. Guesses from one address
 * never hold another back.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SignInLimitKind } from '@mpesa/shared/contract-admin';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import type { Database, OperatorRow } from '../../db/schema.ts';
import { tooManySignIns } from '../../errors.ts';
import {
  countSlidingHit,
  deleteEndedWindows,
  slidingRetryAfterMs,
} from '../../limits/rate-limit.repository.ts';
import { isStorableName, nameKey } from './operator-name.ts';
import * as repo from './operators.repository.ts';

/** The sign-in limits, each over a sliding window. */
export interface SignInLimit {
  /** Failed sign-ins allowed for one name from one address, in any `windowS`. */
  perNameAndAddress: number;
  /** Failed sign-ins allowed from one address, whatever the names, in any `windowS`. */
  perAddress: number;
  windowS: number;
  /**
   * Failed sign-ins allowed for one name from all addresses together, in any `nameWindowS`;
   * past it only an address the operator has signed in from is let in.
   */
  perName: number;
  nameWindowS: number;
}

/** An address the operator signed in from is let in past the name's bound for this long after. */
export const KNOWN_ADDRESS_MS = 90 * 24 * 60 * 60 * 1000;

/**
 * A name that can be looked up: one no operator can have (too long, or with a control character,
 * which PostgreSQL text refuses outright when it is NUL) is never sent to the database.
 */
export const usableName = (name: string) => isStorableName(name) && !/\p{C}/u.test(name);

/** A counter a sign-in counted in, and the fixed window it counted in: taken back off on success. */
export interface Counted {
  key: string;
  windowIndex: number;
}

/** What the counters of one name from one address, and of one address, start with. */
const SIGN_IN_PREFIX = 'sign-in|';
/** What the counters of one name from every address start with (their windows are longer). */
const NAME_PREFIX = 'sign-in-name|';

interface Counter {
  key: string;
  /** Which limit it is, as the audit trail says (its words: audit/audit-details.ts). */
  by: SignInLimitKind;
  limit: number;
  windowMs: number;
}

/**
 * The counters a sign-in counts in: its name's from its address and its address's, checked first,
 * and its name's from every address. The name is hashed: a password typed into the name field
 * must not be kept in the clear; an unknown name is counted as a known one is.
 */
function countersFor(settings: SignInLimit, name: string, addressKey: string) {
  const hashedName = createHash('sha256')
    .update(usableName(name) ? nameKey(name) : name)
    .digest('hex');
  const windowMs = settings.windowS * 1000;
  const address: Counter[] = [
    {
      key: `${SIGN_IN_PREFIX}name-address|${hashedName}|${addressKey}`,
      by: 'name_from_address',
      limit: settings.perNameAndAddress,
      windowMs,
    },
    {
      key: `${SIGN_IN_PREFIX}address|${addressKey}`,
      by: 'address',
      limit: settings.perAddress,
      windowMs,
    },
  ];
  const everywhere: Counter = {
    key: `${NAME_PREFIX}${hashedName}`,
    by: 'name',
    limit: settings.perName,
    windowMs: settings.nameWindowS * 1000,
  };
  return { address, everywhere };
}

/**
 * Counts a sign-in in its counters before its password is checked, and throws 429
 * TOO_MANY_SIGN_INS (with how long to wait) past a limit. Returns what it counted.
 */
export async function countSignIn(
  deps: { db: Kysely<Database>; now: () => Date; sessions: { signInLimit: SignInLimit } },
  input: { name: string; addressKey: string; address?: string },
  findOperator: () => Promise<OperatorRow | undefined>,
): Promise<Counted[]> {
  const { db, sessions } = deps;
  const now = deps.now();
  const nowMs = now.getTime();
  const counters = countersFor(sessions.signInLimit, input.name, input.addressKey);
  const address = input.address ?? null;
  const counted: Counted[] = [];

  /**
   * Counts the attempt in `counter` (one atomic statement: of a burst sent at once, only as many
   * as the limit allows get past) and answers how long it must wait, or 0. The audit trail gets
   * one line when a limit is first passed, not one per attempt refused: a flood of attempts must
   * not fill it.
   */
  async function count(counter: Counter): Promise<number> {
    const hit = await countSlidingHit(db, counter.key, nowMs, counter.windowMs);
    counted.push({ key: counter.key, windowIndex: hit.windowIndex });
    if (hit.estimate <= counter.limit) return 0;
    const waitMs = slidingRetryAfterMs(hit, counter.limit, nowMs, counter.windowMs);
    if (hit.estimate - 1 <= counter.limit) {
      await recordAudit(db, {
        at: now,
        actorKind: 'anonymous',
        actor: (await findOperator())?.name ?? null,
        action: 'sign_in_failed',
        detail: auditDetail.signInLimit(counter.by, new Date(nowMs + waitMs)),
        address,
      });
    }
    return Math.max(waitMs, 1);
  }
  const refuse = (waitMs: number) => tooManySignIns(Math.max(1, Math.ceil(waitMs / 1000)));

  // This address's own limits first: an attempt they refuse is not counted against the name
  // everywhere, so that guesses from one address never refuse the right password from another.
  let waitMs = 0;
  for (const counter of counters.address) waitMs = Math.max(waitMs, await count(counter));
  if (waitMs > 0) throw refuse(waitMs);
  // The counters of windows that have slid out count nothing any more.
  const { windowIndex } = counted[0]!;
  await deleteEndedWindows(db, SIGN_IN_PREFIX, windowIndex - 1);

  // The name from every address: past it, only where the operator has signed in before.
  const nameWaitMs = await count(counters.everywhere);
  await deleteEndedWindows(db, NAME_PREFIX, counted[counted.length - 1]!.windowIndex - 1);
  if (nameWaitMs > 0) {
    const operator = await findOperator();
    const since = new Date(nowMs - KNOWN_ADDRESS_MS).toISOString();
    // Asked for an unknown name too (an id no operator has): the answer takes as long.
    const known = await repo.isKnownAddress(db, operator?.id ?? '', input.addressKey, since);
    if (!operator || !known) throw refuse(nameWaitMs);
  }
  return counted;
}
