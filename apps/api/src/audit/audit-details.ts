/**
 * The audit trail's `detail`: a few words in English, kept as they were written (an owner reading
 * the database, or an older version, reads them as they are), and read back here into parts
 * (`AuditFacts`) that the screens put in their own words and language. Each detail is written by
 * one function below and read by the one reader of its action, so that the two never drift; a
 * detail that does not read (an older or newer wording) gives no facts, and the screens show the
 * stored words.
 */
import { TRANSACTION_STATUSES, PAYMENT_CHANNELS } from '@mpesa/shared';
import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  type AuditAction,
  type AuditFacts,
  type SignInLimitKind,
} from '@mpesa/shared/contract-admin';
import { OPERATOR_ROLES, type OperatorRole } from '@mpesa/shared/contract-auth';

type Facts<K extends AuditFacts['kind']> = Extract<AuditFacts, { kind: K }>;

/** How each sign-in limit is named in the stored words. */
const LIMIT_WORDS: Record<SignInLimitKind, string> = {
  name_from_address: 'name from this address',
  address: 'address',
  name: 'name from all addresses',
};

const SIGN_IN_RACE = 'the operator was removed, or their password changed, during the sign-in';
const ONE_TIME_LINK = 'by a one-time link';

/** The detail each recorder writes, by what it records. */
export const auditDetail = {
  /** operator_added: the role given. */
  added: (role: OperatorRole) => `role: ${role}`,
  /** operator_removed: the role they had. */
  removed: (role: OperatorRole) => `was ${role}`,
  roleChanged: (from: OperatorRole, to: OperatorRole) => `${from} → ${to}`,
  reviewed: (from: string, to: string, note: string) => `${from} → ${to}: ${note}`,
  refunded: (amount: number, reason: string) => `${amount} KES: ${reason}`,
  /** payout_proposed, payout_approved, payout_declined: what, how much, and why. */
  payout: (kind: string, amount: number, reason: string) => `${kind} of ${amount} KES: ${reason}`,
  /** payouts_export: which payouts, as the filters said them (`all` for none). */
  payoutsExport: (filters: { status?: readonly string[]; from?: string; to?: string }) =>
    [
      filters.status ? `status ${filters.status.join(', ')}` : '',
      filters.from ? `from ${filters.from}` : '',
      filters.to ? `to ${filters.to}` : '',
    ]
      .filter(Boolean)
      .join('; ') || 'all',
  key: (scope: ApiKeyScope) => `scope ${scope}`,
  /** A key revoked with its maker, removed (`role` null) or no longer an owner. */
  keyOfMaker: (scope: ApiKeyScope, maker: string, role: OperatorRole | null) =>
    `scope ${scope}; its maker ${maker} ${role === null ? 'was removed' : `is no longer an owner (now ${role})`}`,
  oneTimeLink: ONE_TIME_LINK,
  signInRace: SIGN_IN_RACE,
  signInLimit: (by: SignInLimitKind, until: Date) =>
    `too many failed sign-ins for this ${LIMIT_WORDS[by]}: attempts are refused until about ${until.toISOString()}`,
  /** An endpoint added: its URL, and its events as stored (a JSON array). */
  endpointAdded: (url: string, events: string) => `${url} (${events})`,
  endpointRemoved: (url: string) => url,
  /** What changed about an endpoint: each of its URL, its events (stored JSON) and whether it is on. */
  endpointChanged: (change: {
    url?: { from: string; to: string };
    events?: string;
    enabled?: boolean;
  }) => {
    const words: string[] = [];
    if (change.url) words.push(`URL ${change.url.from} → ${change.url.to}`);
    if (change.events !== undefined) words.push(`events ${change.events}`);
    if (change.enabled !== undefined) words.push(change.enabled ? 'enabled' : 'disabled');
    return words.join('; ') || 'nothing changed';
  },
  endpointFailing: (url: string, since: string) =>
    `Every delivery to ${url} has failed since ${since}: no more events are sent to it until it is enabled again.`,
  secretRotated: (prefix: string) => `now ${prefix}…`,
  resent: (eventType: string, eventId: string) => `${eventType} ${eventId}`,
  resentFailed: (count: number) => `${count} failed deliveries`,
  testSent: (eventId: string) => eventId,
};

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

/** A JSON array of strings, or undefined. */
function stringsIn(json: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) && value.every((each) => typeof each === 'string')
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** Two of `values` on either side of an arrow, and what follows `rest` (a review's note). */
function fromTo<T extends string>(values: readonly T[], text: string) {
  const found = /^(\S+) → (\S+)(?:: ([\s\S]*))?$/.exec(text);
  if (!found || !isOneOf(values, found[1]) || !isOneOf(values, found[2])) return undefined;
  return { from: found[1], to: found[2], rest: found[3] };
}

function readKey(detail: string): Facts<'key'> | undefined {
  const found =
    /^scope (\S+?)(?:; its maker ([\s\S]+) (?:was removed|is no longer an owner \(now (\S+)\)))?$/.exec(
      detail,
    );
  if (!found || !isOneOf(API_KEY_SCOPES, found[1])) return undefined;
  const [, scope, maker, role] = found;
  if (maker === undefined) return { kind: 'key', scope, maker: null };
  if (role !== undefined && !isOneOf(OPERATOR_ROLES, role)) return undefined;
  return { kind: 'key', scope, maker: { name: maker, role: role ?? null } };
}

/**
 * The export's filters, stored as their JSON (features/history): the ones known read into parts,
 * any other said by name and value, as text.
 */
function readExport(detail: string): Facts<'export'> | undefined {
  let filters: unknown;
  try {
    filters = JSON.parse(detail);
  } catch {
    return undefined;
  }
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) return undefined;
  const facts: Facts<'export'> = {
    kind: 'export',
    status: [],
    channel: [],
    from: null,
    to: null,
    search: false,
    more: [],
  };
  for (const [name, value] of Object.entries(filters)) {
    const list = [value].flat();
    if (name === 'status' && list.every((each) => isOneOf(TRANSACTION_STATUSES, each))) {
      facts.status = list;
    } else if (name === 'channel' && list.every((each) => isOneOf(PAYMENT_CHANNELS, each))) {
      facts.channel = list;
    } else if ((name === 'from' || name === 'to') && typeof value === 'string') {
      facts[name] = value;
    } else if (name === 'q') {
      facts.search = Boolean(value);
    } else {
      facts.more.push({ name, value: list.map(String).join(', ') });
    }
  }
  return facts;
}

function readSignInFailure(detail: string): AuditFacts | undefined {
  if (detail === SIGN_IN_RACE) return { kind: 'sign_in_race' };
  const found =
    /^too many failed sign-ins for this (.+): attempts are refused until about (\S+)$/.exec(detail);
  const by = Object.entries(LIMIT_WORDS).find(([, words]) => words === found?.[1])?.[0];
  return found && by
    ? { kind: 'sign_in_limit', by: by as SignInLimitKind, until: found[2]! }
    : undefined;
}

function readEndpointChange(detail: string): Facts<'endpoint_change'> | undefined {
  const facts: Facts<'endpoint_change'> = {
    kind: 'endpoint_change',
    url: null,
    events: null,
    enabled: null,
  };
  if (detail === 'nothing changed') return facts;
  // A URL as stored has no space (it is the parsed URL's href), so '; ' parts them.
  for (const part of detail.split('; ')) {
    const url = /^URL (\S+) → (\S+)$/.exec(part);
    const events = /^events (\[.*\])$/.exec(part);
    if (url) facts.url = { from: url[1]!, to: url[2]! };
    else if (events && stringsIn(events[1]!)) facts.events = stringsIn(events[1]!)!;
    else if (part === 'enabled' || part === 'disabled') facts.enabled = part === 'enabled';
    else return undefined;
  }
  return facts;
}

function readEndpointAdded(detail: string): Facts<'endpoint'> | undefined {
  const found = /^(\S+) \((\[.*\])\)$/.exec(detail);
  const events = found && stringsIn(found[2]!);
  return found && events ? { kind: 'endpoint', url: found[1]!, events } : undefined;
}

function readResent(detail: string): AuditFacts | undefined {
  const many = /^(\d+) failed deliveries$/.exec(detail);
  if (many) return { kind: 'resent_failed', count: Number(many[1]) };
  const one = /^(\S+) (\S+)$/.exec(detail);
  return one ? { kind: 'resent', eventType: one[1]!, eventId: one[2]! } : undefined;
}

/** Each action's reader of its detail (a detail of a kind never written reads as nothing). */
const READERS: Partial<Record<AuditAction, (detail: string) => AuditFacts | undefined>> = {
  operator_added: (detail) => {
    const role = /^role: (\S+)$/.exec(detail)?.[1];
    return isOneOf(OPERATOR_ROLES, role) ? { kind: 'role', role } : undefined;
  },
  operator_removed: (detail) => {
    const role = /^was (\S+)$/.exec(detail)?.[1];
    return isOneOf(OPERATOR_ROLES, role) ? { kind: 'role', role } : undefined;
  },
  operator_role_changed: (detail) => {
    const found = fromTo(OPERATOR_ROLES, detail);
    return found && found.rest === undefined
      ? { kind: 'role_change', from: found.from, to: found.to }
      : undefined;
  },
  review: (detail) => {
    const found = fromTo(TRANSACTION_STATUSES, detail);
    return found && found.rest !== undefined
      ? { kind: 'review', from: found.from, to: found.to, note: found.rest }
      : undefined;
  },
  refund: (detail) => {
    const found = /^(\d+(?:\.\d+)?) KES: ([\s\S]*)$/.exec(detail);
    return found ? { kind: 'refund', amount: Number(found[1]), reason: found[2]! } : undefined;
  },
  key_created: readKey,
  key_revoked: readKey,
  export: readExport,
  password_set: (detail) => (detail === ONE_TIME_LINK ? { kind: 'one_time_link' } : undefined),
  sign_in_failed: readSignInFailure,
  webhook_endpoint_added: readEndpointAdded,
  webhook_endpoint_changed: readEndpointChange,
  webhook_endpoint_removed: (detail) =>
    /^\S+$/.test(detail) ? { kind: 'endpoint', url: detail, events: [] } : undefined,
  webhook_endpoint_disabled: (detail) => {
    const found = /^Every delivery to (\S+) has failed since (\S+): /.exec(detail);
    return found ? { kind: 'endpoint_failing', url: found[1]!, since: found[2]! } : undefined;
  },
  webhook_secret_rotated: (detail) => {
    const prefix = /^now (\S+)…$/.exec(detail)?.[1];
    return prefix ? { kind: 'secret', prefix } : undefined;
  },
  webhook_resent: readResent,
  webhook_test_sent: (detail) =>
    /^\S+$/.test(detail) ? { kind: 'test_event', eventId: detail } : undefined,
};

/** The parts of a stored detail, or null when there is none or it does not read. */
export function readAuditDetail(action: AuditAction, detail: string | null): AuditFacts | null {
  if (detail === null) return null;
  return READERS[action]?.(detail) ?? null;
}
