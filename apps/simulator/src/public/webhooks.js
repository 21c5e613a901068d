// The development receiver's view: the webhooks the shop's API sent to POST /_sim/webhooks/inbox,
// newest first, each with its event type and id, when it came, what the receiver answered, the
// signing headers and the body. Plain browser JavaScript, like phone.js: every piece of text goes
// in through textContent.
import { block } from './log.js';

const $ = (id) => document.getElementById(id);

/** The webhooks received, newest first; the newest opened. */
export function renderWebhooks(entries) {
  const list = $('webhooks');
  list.replaceChildren(
    ...entries.map((entry, index) => {
      const item = document.createElement('li');
      item.className = `log-entry webhook ${entry.status === 200 ? 'good' : 'bad'}`;
      const details = document.createElement('details');
      details.open = index === 0;
      const summary = document.createElement('summary');
      const time = new Date(entry.at).toLocaleTimeString();
      const event = entry.eventType ?? '(not an event)';
      summary.textContent = `${time}  ${event}  ${entry.eventId ?? ''}  → answered ${entry.status} (attempt ${entry.attempt})`;
      details.append(
        summary,
        block('Mpesa-Signature', entry.signature ?? '(none)'),
        block('Mpesa-Event-Id', entry.eventIdHeader ?? '(none)'),
        block('Body', entry.body),
      );
      item.append(details);
      return item;
    }),
  );
  if (entries.length === 0) {
    const empty = document.createElement('li');
    empty.className = 'hint';
    empty.textContent = 'Nothing yet.';
    list.append(empty);
  }
}
