import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import { SCOPES } from '../owner-words';
import { NamedChoiceForm } from './named-choice-form';

/** A new key for one of the shop's own systems: a name to know it by, and what it may do. */
export function CreateKeyForm(props: {
  busy: boolean;
  onCreate: (name: string, scope: ApiKeyScope) => Promise<boolean>;
}) {
  return (
    <NamedChoiceForm<ApiKeyScope>
      id="key"
      title="Create a key"
      missingName="Enter a name for the key."
      hint="The system that will use it, e.g. “Till 2” or “Accounts”."
      legend="What it may do"
      choices={SCOPES}
      initial="payments:read"
      submitLabel="Create key"
      busy={props.busy}
      onSubmit={props.onCreate}
    />
  );
}
