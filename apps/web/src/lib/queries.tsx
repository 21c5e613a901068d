import type { ComponentType } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createQueryClient } from './query-client';

/*
 * TanStack Query, for every screen but the first: the history, a payment's page, signing in and
 * the header's operator bar each export their screen wrapped in this provider, all with the one
 * client, so that they share what they asked (docs/performance.md, "The web app"). It comes with
 * the first of those screens; the payment form has no need of it. (The screens import it
 * statically: a dynamic import of it from the first screen made the bundler move React out of the
 * first screen's chunk into one more file to wait for.)
 */
let client: QueryClient | undefined;

export function sharedQueryClient(): QueryClient {
  return (client ??= createQueryClient());
}

/** For the tests: each one starts with an empty cache. */
export function replaceSharedQueryClient(): QueryClient {
  return (client = createQueryClient());
}

/** The screen, rendered inside the shared client's provider. */
export function withQueries<P extends object>(Screen: ComponentType<P>): ComponentType<P> {
  return function WithQueries(props: P) {
    return (
      <QueryClientProvider client={sharedQueryClient()}>
        <Screen {...props} />
      </QueryClientProvider>
    );
  };
}
