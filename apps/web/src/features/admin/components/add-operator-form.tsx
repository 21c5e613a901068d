import type { OperatorRole } from '@mpesa/shared/contract-auth';
import { ROLES } from '../owner-words';
import { NamedChoiceForm } from './named-choice-form';

/** Adding an operator: a name and what they can do. They choose their password by the link. */
export function AddOperatorForm(props: {
  busy: boolean;
  onAdd: (name: string, role: OperatorRole) => Promise<boolean>;
}) {
  return (
    <NamedChoiceForm<OperatorRole>
      id="operator"
      title="Add an operator"
      missingName="Enter their name."
      nameInput={{ autoCapitalize: 'none', spellCheck: false }}
      legend="What they can do"
      choices={ROLES}
      initial="viewer"
      submitLabel="Add operator"
      busy={props.busy}
      onSubmit={props.onAdd}
    />
  );
}
