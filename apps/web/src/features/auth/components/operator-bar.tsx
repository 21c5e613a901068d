import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NavLink, useNavigate } from 'react-router';
import { ownerPaths } from '../../../lib/owner-paths';
import { paths } from '../../../lib/paths';
import { useWords } from '../../../i18n/words';
import { ApiError } from '../../../lib/api-client';
import {
  authKeys,
  failedAttemptsQueryOptions,
  meQueryOptions,
  signOut,
  switchOperator,
} from '../api/auth-api';
import { authWords } from '../auth-words';
import { setSignedIn } from '../history-reach';

export const SIGN_OUT_FAILED = authWords.en.signOutFailed;

/**
 * In the header, for a signed-in operator: who they are, an owner's own screens, and the way out.
 * Nothing at all when no one is signed in, which is always so with HISTORY_ACCESS=open: the
 * screens stay as they were.
 */
export function OperatorBar() {
  const { data: operator } = useQuery(meQueryOptions());
  const { data: failedAttempts = 0 } = useQuery(failedAttemptsQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const words = useWords(authWords);
  // The header's "Transactions" is offered to whoever is signed in (history-reach.ts).
  useEffect(() => setSignedIn(Boolean(operator)), [operator]);
  if (!operator) return null;

  async function leave() {
    setBusy(true);
    setFailed(false);
    try {
      await signOut();
    } catch (error) {
      // A session that had already ended (401) is as signed out as one ended now.
      if (!(error instanceof ApiError && error.status === 401)) {
        setFailed(true);
        setBusy(false);
        return;
      }
    }
    setBusy(false);
    void navigate(paths.signIn);
    // What the operator saw stays no longer on this device than their session did.
    switchOperator(queryClient, null);
  }

  return (
    <div className="operator-bar">
      <p>{words.signedInAs(operator.name, operator.role)}</p>
      {/* Beside the name: on a phone they share a line. */}
      <button
        type="button"
        className="button button-secondary"
        onClick={() => void leave()}
        disabled={busy}
      >
        {words.signOut}
      </button>
      {/* Once after signing in: someone else may have been guessing the password. */}
      {failedAttempts > 0 && (
        <p className="operator-bar-warning" role="status">
          {words.failedAttempts(failedAttempts)}{' '}
          <button
            type="button"
            className="button button-secondary"
            onClick={() => queryClient.setQueryData(authKeys.failedAttempts, 0)}
          >
            {words.dismiss}
          </button>
        </p>
      )}
      <nav aria-label={words.moneyNavigation}>
        <NavLink to={paths.links}>{words.links}</NavLink>
        <NavLink to={paths.payouts}>{words.payouts}</NavLink>
      </nav>
      {operator.role === 'owner' && (
        <nav aria-label={words.ownerNavigation}>
          <NavLink to={ownerPaths.operators}>{words.operators}</NavLink>
          <NavLink to={ownerPaths.keys}>{words.apiKeys}</NavLink>
          <NavLink to={ownerPaths.webhooks}>{words.webhooks}</NavLink>
          <NavLink to={ownerPaths.audit}>{words.auditTrail}</NavLink>
        </nav>
      )}
      {failed && (
        <p className="operator-bar-error" role="alert">
          {words.signOutFailed}
        </p>
      )}
    </div>
  );
}
