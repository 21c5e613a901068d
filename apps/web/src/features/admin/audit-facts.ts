/**
 * An audit line's details in the screen's language: the parts the API read out of it (`facts`),
 * each put in words, roles, statuses, scopes and events by their names on the other screens.
 */
import type { TransactionStatus } from '@mpesa/shared';
import type { AuditEntry, AuditFacts } from '@mpesa/shared/contract-admin';
import { LOCALES, type Language } from '../../i18n/language';
import { formatAmount, formatDate } from '../../lib/format';
import type { AuditWords } from './audit-words';
import type { OwnerWords } from './owner-words';

/** The words a line's details are made of, each from its own screen's book. */
export interface FactWords {
  said: AuditWords['facts'];
  owner: Pick<OwnerWords, 'roles' | 'scopes'>;
  statuses: Record<TransactionStatus, string>;
  events: Record<string, string>;
  /** Every event an endpoint can be sent: a list of them all is said in one word. */
  allEvents: readonly string[];
  language: Language;
}

/** "Success, Failed or Timeout" / "Success, Failed au Timeout". */
const list = (items: string[], language: Language, type: 'conjunction' | 'disjunction') =>
  new Intl.ListFormat(LOCALES[language], { type }).format(items);

/**
 * A business day (`YYYY-MM-DD`) as "25 Nov 2026". Written out rather than with formatRange, which
 * in Kiswahili drops the first month of a range across two ("1 – 25 Nov" for 1 Oct to 25 Nov).
 */
function day(value: string, language: Language, withYear = true): string {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString(LOCALES[language], {
    day: 'numeric',
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  });
}

function exportWords(facts: Extract<AuditFacts, { kind: 'export' }>, words: FactWords): string {
  const { said, language } = words;
  const parts: string[] = [];
  if (facts.status.length > 0) {
    const names = facts.status.map((status) => words.statuses[status] ?? status);
    parts.push(said.status(list(names, language, 'disjunction')));
  }
  if (facts.channel.length > 0) {
    const names = facts.channel.map((channel) => said.channels[channel] ?? channel);
    parts.push(said.channel(list(names, language, 'disjunction')));
  }
  const { from, to } = facts;
  if (from && to) {
    const sameYear = from.slice(0, 4) === to.slice(0, 4);
    parts.push(said.days(day(from, language, !sameYear), day(to, language)));
  } else if (from) parts.push(said.fromDay(day(from, language)));
  else if (to) parts.push(said.toDay(day(to, language)));
  if (facts.search) parts.push(said.search);
  // Filters this version has no words for: said to be there, never what they held (a value may
  // be a payer's number, as a search's is).
  if (facts.more.length > 0) parts.push(said.otherFilters);
  return parts.length > 0 ? parts.join(', ') : said.everything;
}

function endpointChangeWords(
  facts: Extract<AuditFacts, { kind: 'endpoint_change' }>,
  words: FactWords,
  eventNames: (types: string[]) => string,
): string {
  const { said } = words;
  const parts: string[] = [];
  if (facts.url) parts.push(said.urlNow(facts.url.to));
  if (facts.events) parts.push(said.eventsNow(eventNames(facts.events)));
  if (facts.enabled !== null) parts.push(facts.enabled ? said.turnedOn : said.turnedOff);
  return parts.length > 0 ? parts.join(', ') : said.nothingChanged;
}

/**
 * The details of one line, in words: phrases to show after what was done. `action` tells an
 * operator added with a role from one removed with it.
 */
export function factPhrases(
  { action, facts }: Pick<AuditEntry, 'action' | 'facts'>,
  words: FactWords,
): string[] {
  if (!facts) return [];
  const { said, owner, statuses, language } = words;
  const role = (value: keyof typeof owner.roles) => owner.roles[value]?.name ?? value;
  const status = (value: TransactionStatus) => statuses[value] ?? value;
  const eventNames = (types: string[]) =>
    words.allEvents.every((type) => types.includes(type))
      ? said.allEvents
      : list(
          types.map((type) => words.events[type] ?? type),
          language,
          'conjunction',
        );
  const date = (value: string) => formatDate(value, language);
  switch (facts.kind) {
    case 'role':
      return [
        action === 'operator_removed'
          ? said.removedWas(role(facts.role))
          : said.addedAs(role(facts.role)),
      ];
    case 'role_change':
      return [said.change(role(facts.from), role(facts.to))];
    case 'review':
      return [
        // A flag cleared with the status kept, the most common review, says so.
        facts.from === facts.to
          ? said.kept(status(facts.to))
          : said.change(status(facts.from), status(facts.to)),
        said.note(facts.note),
      ];
    case 'refund':
      return [formatAmount(facts.amount, language), said.reason(facts.reason)];
    case 'key': {
      const scope = said.scope(owner.scopes[facts.scope]?.name ?? facts.scope);
      const { maker } = facts;
      if (!maker) return [scope];
      return [
        scope,
        maker.role === null
          ? said.makerRemoved(maker.name)
          : said.makerNotOwner(maker.name, role(maker.role)),
      ];
    }
    case 'export':
      return [exportWords(facts, words)];
    case 'one_time_link':
      return [said.oneTimeLink];
    case 'sign_in_race':
      return [said.signInRace];
    case 'sign_in_limit':
      return [`${said.signInLimit[facts.by]}, ${said.refusedUntil(date(facts.until))}`];
    case 'endpoint':
      // Removed: its URL names it already, and its events were not kept.
      return facts.events.length > 0 ? [said.events(eventNames(facts.events))] : [];
    case 'endpoint_change':
      return [endpointChangeWords(facts, words, eventNames)];
    case 'endpoint_failing':
      return [said.failingSince(date(facts.since))];
    case 'secret':
      return [said.secret(facts.prefix)];
    case 'resent':
      return [eventNames([facts.eventType])];
    case 'resent_failed':
      return [said.failedDeliveries(facts.count)];
    case 'test_event':
      // Its id says nothing to an owner: the deliveries on the Webhooks screen show it.
      return [];
    default:
      return [];
  }
}
