import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { OperatorRole } from '@mpesa/shared/contract-auth';
import { formatDate } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  addOperator,
  adminKeys,
  changeRole,
  linkAddress,
  newPasswordLink,
  operatorsQueryOptions,
  removeOperator,
  type PasswordLink,
} from '../api/admin-api';
import { useOwnerChange } from '../use-owner-change';
import { AddOperatorForm } from './add-operator-form';
import { OperatorRow, type OperatorActions } from './operator-row';
import { OnceShown, OwnerProblem } from './owner-parts';

const COLUMNS = ['Name', 'Role', 'Password', 'Added', 'Change'] as const;

/** The link just made, this once, with what it is for. */
function LinkShown({ link, onDone }: { link: PasswordLink; onDone: () => void }) {
  return (
    <OnceShown
      title={`Password link for ${link.name}`}
      secret={linkAddress(link)}
      copyLabel="Copy link"
      onDone={onDone}
    >
      <p>
        Send this link to {link.name}: it lets them choose their password. It works once, for 24
        hours (until {formatDate(link.expiresAt)}). It will not be shown again; a new link can be
        made at any time, and voids this one.
      </p>
    </OnceShown>
  );
}

/** An owner's list of the people who sign in, and the ways to change it. */
export function OperatorsScreen() {
  useDocumentTitle('Operators');
  const list = useQuery(operatorsQueryOptions());
  const change = useOwnerChange(adminKeys.operators);
  const [link, setLink] = useState<PasswordLink | null>(null);

  const show = (made: PasswordLink | undefined) => made && setLink(made);
  const actions: OperatorActions = {
    busy: change.busy,
    changeRole: (name, role) => void change.run(() => changeRole(name, role)),
    passwordLink: (name) => void change.run(() => newPasswordLink(name)).then(show),
    remove: async (name) => void (await change.run(() => removeOperator(name))),
  };
  async function add(name: string, role: OperatorRole) {
    const added = await change.run(() => addOperator({ name, role }));
    show(added?.link);
    return added !== undefined;
  }

  return (
    <section className="card owner-screen" aria-labelledby="operators-title">
      <h2 id="operators-title">Operators</h2>
      <p>The people who sign in to this shop’s payments, and what each of them can do.</p>
      {change.error !== null && <OwnerProblem error={change.error} />}
      {link && <LinkShown link={link} onDone={() => setLink(null)} />}
      {list.isError ? (
        <OwnerProblem error={list.error} />
      ) : !list.data ? (
        <p role="status">Loading operators...</p>
      ) : (
        <table className="owner-table" role="table" aria-labelledby="operators-title">
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
            {list.data.map((operator) => (
              <OperatorRow
                key={`${operator.name}:${operator.role}`}
                operator={operator}
                actions={actions}
              />
            ))}
          </tbody>
        </table>
      )}
      <AddOperatorForm busy={change.busy} onAdd={add} />
    </section>
  );
}
