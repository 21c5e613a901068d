import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { OperatorRole } from '@mpesa/shared/contract-auth';
import { useLanguage, useWords } from '../../../i18n/words';
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
import { ownerWords } from '../owner-words';
import { useOwnerChange } from '../use-owner-change';
import { AddOperatorForm } from './add-operator-form';
import { OperatorRow, type OperatorActions } from './operator-row';
import { OnceShown, OwnerProblem } from './owner-parts';

/** The link just made, this once, with what it is for. */
function LinkShown({ link, onDone }: { link: PasswordLink; onDone: () => void }) {
  const said = useWords(ownerWords).operators;
  const language = useLanguage();
  return (
    <OnceShown
      title={said.linkTitle(link.name)}
      secret={linkAddress(link)}
      copyLabel={said.copyLink}
      onDone={onDone}
    >
      <p>{said.linkText(link.name, formatDate(link.expiresAt, language))}</p>
    </OnceShown>
  );
}

/** An owner's list of the people who sign in, and the ways to change it. */
export function OperatorsScreen() {
  const said = useWords(ownerWords).operators;
  useDocumentTitle(said.title);
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
      <h2 id="operators-title">{said.title}</h2>
      <p>{said.intro}</p>
      {change.error !== null && <OwnerProblem error={change.error} />}
      {link && <LinkShown link={link} onDone={() => setLink(null)} />}
      {list.isError ? (
        <OwnerProblem error={list.error} />
      ) : !list.data ? (
        <p role="status">{said.loading}</p>
      ) : (
        <table className="owner-table" role="table" aria-labelledby="operators-title">
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
