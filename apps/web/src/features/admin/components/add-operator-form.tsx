import type { OperatorRole } from '@mpesa/shared/contract-auth';
import { useWords } from '../../../i18n/words';
import { ownerWords } from '../owner-words';
import { roleChoices } from './choices';
import { NamedChoiceForm } from './named-choice-form';

/** Adding an operator: a name and what they can do. They choose their password by the link. */
export function AddOperatorForm(props: {
  busy: boolean;
  onAdd: (name: string, role: OperatorRole) => Promise<boolean>;
}) {
  const words = useWords(ownerWords);
  return (
    <NamedChoiceForm<OperatorRole>
      id="operator"
      title={words.operators.addTitle}
      missingName={words.operators.addMissingName}
      nameInput={{ autoCapitalize: 'none', spellCheck: false }}
      legend={words.operators.addLegend}
      choices={roleChoices(words)}
      initial="viewer"
      submitLabel={words.operators.addSubmit}
      busy={props.busy}
      onSubmit={props.onAdd}
    />
  );
}
