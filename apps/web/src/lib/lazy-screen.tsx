import { use, type ComponentType } from 'react';

export interface LazyScreen {
  /** Renders the screen; suspends until its code has arrived. */
  Component: ComponentType;
  /** Fetches the screen's code (once); resolves when it can render without suspending. */
  preload: () => Promise<unknown>;
}

/**
 * A screen whose code is in a chunk of its own, fetched the first time it is needed. Unlike
 * React.lazy, a screen preloaded before the first render renders at once instead of suspending
 * for a frame, so that opening its address paints it whole and nothing moves afterwards.
 */
export function lazyScreen(load: () => Promise<ComponentType>): LazyScreen {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed download (the network dropped) is tried again on the next visit.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  function Component() {
    const Screen = loaded ?? use(preload());
    return <Screen />;
  }
  return { Component, preload };
}
