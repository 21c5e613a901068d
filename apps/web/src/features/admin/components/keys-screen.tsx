import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import { formatDate } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { adminKeys, createKey, keysQueryOptions, revokeKey, type ApiKey } from '../api/admin-api';
import { scopeName } from '../owner-words';
import { useOwnerChange } from '../use-owner-change';
import { CreateKeyForm } from './create-key-form';
import { Confirm, OnceShown, OwnerProblem } from './owner-parts';

const COLUMNS = ['Name', 'May', 'Starts with', 'Created', 'Last used', 'Status'] as const;

function KeyRow(props: {
  apiKey: ApiKey;
  busy: boolean;
  onRevoke: (key: ApiKey) => Promise<void>;
}) {
  const { apiKey: key, busy } = props;
  const [revoking, setRevoking] = useState(false);
  return (
    <tr role="row">
      <td role="cell" data-label="Name">
        {key.name}
      </td>
      <td role="cell" data-label="May">
        {scopeName(key.scope)}
      </td>
      <td role="cell" data-label="Starts with">
        <code>{key.prefix}</code>
      </td>
      <td role="cell" data-label="Created">
        by {key.createdBy}, {formatDate(key.createdAt)}
      </td>
      <td role="cell" data-label="Last used">
        {key.lastUsedAt ? formatDate(key.lastUsedAt) : 'Never'}
      </td>
      <td role="cell" data-label="Status">
        {key.revokedAt ? (
          `Revoked ${formatDate(key.revokedAt)}`
        ) : revoking ? (
          <Confirm
            question={`Revoke the key “${key.name}”? Systems using it are refused from now on.`}
            yes={`Revoke ${key.name}`}
            no="Keep"
            busy={busy}
            onYes={() => void props.onRevoke(key).then(() => setRevoking(false))}
            onNo={() => setRevoking(false)}
          />
        ) : (
          <div className="owner-actions">
            <span>Active</span>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => setRevoking(true)}
              aria-label={`Revoke ${key.name}`}
            >
              Revoke
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** An owner's API keys for the shop's own systems: made here, shown once, revoked here. */
export function KeysScreen() {
  useDocumentTitle('API keys');
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
      <h2 id="keys-title">API keys</h2>
      <p>
        Keys let the shop’s own systems read payments or ask for them, without anyone signing in. A
        system sends its key in an <code>Authorization: Bearer</code> header.
      </p>
      {change.error !== null && <OwnerProblem error={change.error} />}
      {made && (
        <OnceShown
          title={`The key “${made.name}”`}
          secret={made.secret}
          copyLabel="Copy key"
          onDone={() => setMade(null)}
        >
          <p>Copy it now and keep it safe: it will not be shown again.</p>
        </OnceShown>
      )}
      {list.isError ? (
        <OwnerProblem error={list.error} />
      ) : !list.data ? (
        <p role="status">Loading keys...</p>
      ) : list.data.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <table className="owner-table" role="table" aria-labelledby="keys-title">
          <thead role="rowgroup">
            <tr role="row">
              {COLUMNS.map((column) => (
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
