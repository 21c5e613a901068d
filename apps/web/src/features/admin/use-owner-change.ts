import { useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * One change on an owner's screen at a time: whether it is on its way, why it failed, and the
 * list it changed asked for again once it is done (whether it worked or not: a refusal can mean
 * the list was out of date).
 */
export function useOwnerChange(listKey: QueryKey) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function run<T>(change: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    try {
      return await change();
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: listKey });
    }
  }

  return { busy, error, run, clearError: () => setError(null) };
}
