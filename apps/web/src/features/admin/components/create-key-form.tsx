import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import { useWords } from '../../../i18n/words';
import { ownerWords } from '../owner-words';
import { scopeChoices } from './choices';
import { NamedChoiceForm } from './named-choice-form';

/** A new key for one of the shop's own systems: a name to know it by, and what it may do. */
export function CreateKeyForm(props: {
  busy: boolean;
  onCreate: (name: string, scope: ApiKeyScope) => Promise<boolean>;
}) {
  const words = useWords(ownerWords);
  return (
    <NamedChoiceForm<ApiKeyScope>
      id="key"
      title={words.keys.createTitle}
      missingName={words.keys.createMissingName}
      hint={words.keys.createHint}
      legend={words.keys.createLegend}
      choices={scopeChoices(words)}
      initial="payments:read"
      submitLabel={words.keys.createSubmit}
      busy={props.busy}
      onSubmit={props.onCreate}
    />
  );
}
