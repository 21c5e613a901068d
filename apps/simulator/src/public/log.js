// The live request log's view: each request with its answer, each callback with its receiver's.
// Plain browser JavaScript, like phone.js: every piece of text goes in through textContent.

const $ = (id) => document.getElementById(id);

/** A JSON text or value, indented; any other text as it is. */
export function pretty(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
}

/** A labelled block of preformatted text. */
export function block(label, value) {
  const wrap = document.createElement('div');
  const heading = document.createElement('p');
  heading.className = 'log-label';
  heading.textContent = label;
  const pre = document.createElement('pre');
  pre.textContent = pretty(value) || '(empty)';
  // A long body scrolls within its block (phone.css): focusable, so that a keyboard can scroll it.
  pre.tabIndex = 0;
  wrap.append(heading, pre);
  return wrap;
}

/** The live log's entries, as the two checkboxes filter them. */
export function renderLogEntries(log) {
  const showRequests = $('show-requests').checked;
  const showCallbacks = $('show-callbacks').checked;
  const entries = log.filter((entry) => (entry.kind === 'request' ? showRequests : showCallbacks));
  $('log').replaceChildren(
    ...entries.map((entry) => {
      const item = document.createElement('li');
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      const time = new Date(entry.at).toLocaleTimeString();
      const failed =
        entry.kind === 'callback'
          ? entry.status === null || entry.status >= 300
          : entry.status === null || entry.status >= 400;
      item.className = `log-entry ${entry.kind} ${failed ? 'bad' : 'good'}`;
      summary.textContent =
        entry.kind === 'request'
          ? `${time}  ${entry.method} ${entry.path} → ${entry.status ?? 'dropped, no answer'}`
          : `${time}  callback #${entry.attempt} → ${entry.url}  ${entry.status ?? `failed: ${entry.error}`}`;
      details.append(summary);
      if (entry.kind === 'request') {
        if (entry.authorization) details.append(block('Authorization', entry.authorization));
        details.append(
          block('Request body', entry.requestBody),
          block('Response', entry.responseBody),
        );
      } else {
        details.append(
          block('Callback body', entry.requestBody),
          block(
            entry.error ? 'Network error' : `Your server answered ${entry.status}`,
            entry.error ?? entry.responseBody,
          ),
        );
      }
      item.append(details);
      return item;
    }),
  );
  if (entries.length === 0) {
    const empty = document.createElement('li');
    empty.className = 'hint';
    empty.textContent = 'Nothing yet.';
    $('log').append(empty);
  }
}
