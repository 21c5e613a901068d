import { useState } from 'react';
import type { OperatorRole } from '@mpesa/shared/contract-auth';
import { formatDate } from '../../../lib/format';
import type { OperatorEntry } from '../api/admin-api';
import { ROLES, roleName } from '../owner-words';
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
  const id = `role-${encodeURIComponent(name)}`;
  return (
    <div className="owner-actions">
      <label htmlFor={id} className="visually-hidden">
        New role for {name}
      </label>
      <select
        id={id}
        value={role}
        onChange={(event) => setRole(event.target.value as OperatorRole)}
      >
        {ROLES.map((each) => (
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
        aria-label={`Change role of ${name}`}
      >
        Change role
      </button>
      <button
        type="button"
        className="button button-secondary"
        disabled={actions.busy}
        onClick={() => actions.passwordLink(name)}
        aria-label={`New password link for ${name}`}
      >
        New password link
      </button>
      {removing ? (
        <Confirm
          question={`Remove ${name}? They are signed out and can no longer sign in.`}
          yes={`Remove ${name}`}
          no="Keep"
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
          aria-label={`Remove ${name}`}
        >
          Remove
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
  return (
    <tr role="row">
      <td role="cell" data-label="Name">
        {operator.name}
        {operator.you && <strong className="owner-you"> (you)</strong>}
      </td>
      <td role="cell" data-label="Role">
        {roleName(operator.role)}
      </td>
      <td role="cell" data-label="Password">
        {operator.passwordSet ? 'Set' : 'Not set yet'}
      </td>
      <td role="cell" data-label="Added">
        {formatDate(operator.createdAt)}
      </td>
      <td role="cell" data-label="Change">
        <OperatorChanges operator={operator} actions={actions} />
      </td>
    </tr>
  );
}
