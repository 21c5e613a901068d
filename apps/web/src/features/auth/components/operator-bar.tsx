import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NavLink, useNavigate } from 'react-router';
import { ownerPaths } from '../../../app/owner-paths';
import { paths } from '../../../app/paths';
import { ApiError } from '../../../lib/api-client';
import { meQueryOptions, signOut, switchOperator } from '../api/auth-api';

export const SIGN_OUT_FAILED = 'Signing out failed. Check your connection, then try again.';

/**
 * In the header, for a signed-in operator: who they are, an owner's own screens, and the way out.
 * Nothing at all when no one is signed in, which is always so with HISTORY_ACCESS=open: the
 * screens stay as they were.
 */
export function OperatorBar() {
  const { data: operator } = useQuery(meQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
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
      <p>
        Signed in as {operator.name} ({operator.role})
      </p>
      {operator.role === 'owner' && (
        <nav aria-label="Owner">
          <NavLink to={ownerPaths.operators}>Operators</NavLink>
          <NavLink to={ownerPaths.keys}>API keys</NavLink>
          <NavLink to={ownerPaths.audit}>Audit trail</NavLink>
        </nav>
      )}
      <button
        type="button"
        className="button button-secondary"
        onClick={() => void leave()}
        disabled={busy}
      >
        Sign out
      </button>
      {failed && (
        <p className="operator-bar-error" role="alert">
          {SIGN_OUT_FAILED}
        </p>
      )}
    </div>
  );
}
