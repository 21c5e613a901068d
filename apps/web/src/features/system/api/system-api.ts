import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface PublicConfig {
  mpesaEnv: 'simulator' | 'sandbox' | 'production';
  simulatorUrl: string | null;
  /** Whom the payer pays, when the API knows it (BUSINESS_NAME). */
  businessName?: string | null;
}

export function publicConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config'],
    queryFn: () => apiRequest<PublicConfig>('/config'),
    staleTime: Infinity,
    retry: false,
  });
}
