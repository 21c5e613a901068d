import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { adminKeys, createKey, keysQueryOptions, revokeKey, type ApiKey } from '../api/admin-api';
import { ownerWords, type OwnerWords } from '../owner-words';
import { useOwnerChange } from '../use-owner-change';
import { CreateKeyForm } from './create-key-form';
import { Confirm, OnceShown, OwnerProblem } from './owner-parts';

/** A revoked key's status: when, and why (by an owner, or with its maker). */
function revokedWords(
  said: Omit<OwnerWords['keys'], 'columns'>,
  key: ApiKey,
  when: string,
): string {
  switch (key.revokedReason) {
    case 'owner':
      return said.revokedByOwner(when, key.revokedBy);
    case 'maker_removed':
      return said.revokedMakerRemoved(when);
    case 'maker_not_owner':
      return said.revokedMakerNotOwner(when);
    default:
      return said.revokedAt(when);
  }
}

function KeyRow(props: {
  apiKey: ApiKey;
  busy: boolean;
  onRevoke: (key: ApiKey) => Promise<void>;
}) {
  const { apiKey: key, busy } = props;
  const [revoking, setRevoking] = useState(false);
  const words = useWords(ownerWords);
  const language = useLanguage();
  const { columns, ...said } = words.keys;
  const date = (value: string) => formatDate(value, language);
  return (
    <tr role="row">
      <td role="cell" data-label={columns.name}>
        {key.name}
      </td>
      <td role="cell" data-label={columns.scope}>
        {words.scopes[key.scope]?.name ?? key.scope}
        {key.scope === 'webhooks:manage' && (
          <>
            <br />
            <small>{said.webhooksHear}</small>
          </>
        )}
      </td>
      <td role="cell" data-label={columns.prefix}>
        <code>{key.prefix}</code>
      </td>
      <td role="cell" data-label={columns.created}>
        {said.createdBy(key.createdBy, date(key.createdAt))}
      </td>
      <td role="cell" data-label={columns.lastUsed}>
        {key.lastUsedAt ? date(key.lastUsedAt) : said.never}
      </td>
      <td role="cell" data-label={columns.status}>
        {key.revokedAt ? (
          revokedWords(said, key, date(key.revokedAt))
        ) : revoking ? (
          <Confirm
            question={said.revokeQuestion(key.name)}
            yes={said.revokeName(key.name)}
            no={words.keep}
            busy={busy}
            onYes={() => void props.onRevoke(key).then(() => setRevoking(false))}
            onNo={() => setRevoking(false)}
          />
        ) : (
          <div className="owner-actions">
            <span>{said.active}</span>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => setRevoking(true)}
              aria-label={said.revokeName(key.name)}
            >
              {said.revoke}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** An owner's API keys for the shop's own systems: made here, shown once, revoked here. */
export function KeysScreen() {
  const said = useWords(ownerWords).keys;
  useDocumentTitle(said.title);
  const list = useQuery(keysQueryOptions());
  const change = useOwnerChange(adminKeys.keys);
  const [made, setMade] = useState<{ name: string; secret: string } | null>(null);

  async function create(name: string, scope: ApiKeyScope) {
    const answer = await change.run(() => createKey({ name, scope }));
    if (answer) setMade({ name: answer.key.name, secret: answer.secret });
    return answer !== undefined;
  }
  const revoke = async (key: ApiKey) => void (await change.run(() => revokeKey(key.id)));

  return (
    <section className="card owner-screen" aria-labelledby="keys-title">
      <h2 id="keys-title">{said.title}</h2>
      <p>
        {said.introBefore}
        <code>Authorization: Bearer</code>
        {said.introAfter}
      </p>
      {change.error !== null && <OwnerProblem error={change.error} />}
      {made && (
        <OnceShown
          title={said.madeTitle(made.name)}
          secret={made.secret}
          copyLabel={said.copyKey}
          onDone={() => setMade(null)}
        >
          <p>{said.madeText}</p>
        </OnceShown>
      )}
      {list.isError ? (
        <OwnerProblem error={list.error} />
      ) : !list.data ? (
        <p role="status">{said.loading}</p>
      ) : list.data.length === 0 ? (
        <p>{said.empty}</p>
      ) : (
        <table className="owner-table" role="table" aria-labelledby="keys-title">
          <thead role="rowgroup">
            <tr role="row">
              {Object.values(said.columns).map((column) => (
                <th key={column} role="columnheader" scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup">
            {list.data.map((key) => (
              <KeyRow key={key.id} apiKey={key} busy={change.busy} onRevoke={revoke} />
            ))}
          </tbody>
        </table>
      )}
      <CreateKeyForm busy={change.busy} onCreate={create} />
    </section>
  );
}
