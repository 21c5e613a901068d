import { useSyncExternalStore } from 'react';
import { apiRequest } from '../../../lib/api-client';

export interface PublicConfig {
  mpesaEnv: 'simulator' | 'sandbox' | 'production';
  simulatorUrl: string | null;
  /** Whom the payer pays, when the API knows it (BUSINESS_NAME). */
  businessName?: string | null;
  /**
   * The till or paybill whose payments from customers' own menus the history takes
   * (MPESA_C2B_SHORTCODE), or null when none: the receipt check is offered only with one.
   */
  c2bShortcode?: string | null;
  /**
   * Whether the history is open to all (HISTORY_ACCESS=open) or for the shop's people only; absent
   * from an older API, taken as open.
   */
  historyOpen?: boolean;
}

/*
 * /api/config, asked once per page. The first screen needs it (the simulator notice, whom the
 * payer pays), so it is kept here rather than in TanStack Query's cache: the query library comes
 * with the other screens, and the first screen's download carries none of it
 * (docs/performance.md, "The web app").
 */
let config: PublicConfig | undefined;
let loading: Promise<PublicConfig> | undefined;
const listeners = new Set<() => void>();

/** Asks for the configuration, once; a failed request is asked again by the next call. */
export function loadConfig(): Promise<PublicConfig> {
  loading ??= apiRequest<PublicConfig>('/config').then(
    (answer) => {
      config = answer;
      listeners.forEach((listener) => listener());
      return answer;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The configuration, or undefined while it has not come (it is asked for on first use). */
export function useConfig(): PublicConfig | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      if (!config) loadConfig().catch(() => undefined);
      return () => listeners.delete(listener);
    },
    () => config,
  );
}

/** For the tests: each one starts with no configuration asked for. */
export function forgetConfig(): void {
  config = undefined;
  loading = undefined;
}
