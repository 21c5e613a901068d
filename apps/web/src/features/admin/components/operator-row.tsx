import { useState } from 'react';
import type { OperatorRole } from '@mpesa/shared/contract-auth';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import type { OperatorEntry } from '../api/admin-api';
import { ownerWords } from '../owner-words';
import { roleChoices } from './choices';
import { Confirm } from './owner-parts';

export interface OperatorActions {
  busy: boolean;
  changeRole: (name: string, role: OperatorRole) => void;
  passwordLink: (name: string) => void;
  remove: (name: string) => Promise<void>;
}

/** What an owner can change about one operator: their role, their password, whether they stay. */
function OperatorChanges({
  operator,
  actions,
}: {
  operator: OperatorEntry;
  actions: OperatorActions;
}) {
  const { name } = operator;
  const [role, setRole] = useState<OperatorRole>(operator.role);
  const [removing, setRemoving] = useState(false);
  const words = useWords(ownerWords);
  const said = words.operators;
  const id = `role-${encodeURIComponent(name)}`;
  return (
    <div className="owner-actions">
      <label htmlFor={id} className="visually-hidden">
        {said.newRoleFor(name)}
      </label>
      <select
        id={id}
        value={role}
        onChange={(event) => setRole(event.target.value as OperatorRole)}
      >
        {roleChoices(words).map((each) => (
          <option key={each.value} value={each.value}>
            {each.name}: {each.can}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button-secondary"
        disabled={actions.busy || role === operator.role}
        onClick={() => actions.changeRole(name, role)}
        aria-label={said.changeRoleOf(name)}
      >
        {said.changeRole}
      </button>
      <button
        type="button"
        className="button button-secondary"
        disabled={actions.busy}
        onClick={() => actions.passwordLink(name)}
        aria-label={said.newLinkFor(name)}
      >
        {said.newLink}
      </button>
      {removing ? (
        <Confirm
          question={said.removeQuestion(name)}
          yes={said.removeName(name)}
          no={words.keep}
          busy={actions.busy}
          onYes={() => void actions.remove(name).then(() => setRemoving(false))}
          onNo={() => setRemoving(false)}
        />
      ) : (
        <button
          type="button"
          className="button button-secondary"
          disabled={actions.busy}
          onClick={() => setRemoving(true)}
          aria-label={said.removeName(name)}
        >
          {said.remove}
        </button>
      )}
    </div>
  );
}

/** One operator: who, what they can do, whether their password is set, and the changes. */
export function OperatorRow({
  operator,
  actions,
}: {
  operator: OperatorEntry;
  actions: OperatorActions;
}) {
  const words = useWords(ownerWords);
  const language = useLanguage();
  const { columns, ...said } = words.operators;
  return (
    <tr role="row">
      <td role="cell" data-label={columns.name}>
        {operator.name}
        {operator.you && <strong className="owner-you">{said.you}</strong>}
      </td>
      <td role="cell" data-label={columns.role}>
        {words.roles[operator.role]?.name ?? operator.role}
      </td>
      <td role="cell" data-label={columns.password}>
        {operator.passwordSet ? said.passwordSet : said.passwordNotSet}
      </td>
      <td role="cell" data-label={columns.added}>
        {formatDate(operator.createdAt, language)}
      </td>
      <td role="cell" data-label={columns.change}>
        <OperatorChanges operator={operator} actions={actions} />
      </td>
    </tr>
  );
}
