import {
  Component as ReactComponent,
  use,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { shellWords } from '../i18n/shell-words';
import { useWords, wordsReady } from '../i18n/words';

export interface LazyScreen {
  /** Renders the screen; suspends until its code has arrived. */
  Component: ComponentType;
  /** Fetches the screen's code (once); resolves when it can render without suspending. */
  preload: () => Promise<unknown>;
}

/** The screen's code did not arrive (the network dropped, or a new version replaced it). */
class ScreenLoadError extends Error {
  override name = 'ScreenLoadError';
}

export const SCREEN_LOAD_FAILED = shellWords.en.screenLoadFailed;

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const words = useWords(shellWords);
  return (
    <div role="alert">
      <p className="error-message">{words.screenLoadFailed}</p>
      <button type="button" className="button button-secondary" onClick={onRetry}>
        {words.tryAgain}
      </button>
    </div>
  );
}

/**
 * Shows a way out when a screen's code could not be downloaded, instead of a blank page; any
 * other error goes on to the boundary above, as if this one were not there.
 */
class ScreenLoadBoundary extends ReactComponent<
  { children: ReactNode; onRetry: () => void; quiet: boolean },
  { failed: unknown }
> {
  override state = { failed: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error };
  }

  override render() {
    const { failed } = this.state;
    if (failed === null) return this.props.children;
    if (!(failed instanceof ScreenLoadError)) throw failed;
    if (this.props.quiet) return null;
    return (
      <LoadFailed
        onRetry={() => {
          this.setState({ failed: null });
          this.props.onRetry();
        }}
      />
    );
  }
}

/**
 * A screen whose code is in a chunk of its own, fetched the first time it is needed. Unlike
 * React.lazy, a screen preloaded before the first render renders at once instead of suspending
 * for a frame, so that opening its address paints it whole and nothing moves afterwards. A
 * `quiet` part of a screen shows nothing, rather than the way out, when its code did not arrive.
 */
export function lazyScreen(load: () => Promise<ComponentType>, quiet = false): LazyScreen {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  // A screen comes with its words in the language chosen, so that it paints in one language.
  const loadWithWords = () =>
    load().then(async (component) => {
      // A screen whose Kiswahili did not come is one that did not load: "Try again" asks for both.
      if (!(await wordsReady())) throw new Error('The screen’s words could not be loaded');
      return component;
    });
  const preload = () => {
    loading ??= loadWithWords().then(
      (component) => {
        // Marked as React marks a promise it has seen, so that use() reads it at once.
        Object.assign(loading!, { status: 'fulfilled', value: component });
        return (loaded = component);
      },
      (error: unknown) => {
        // Kept until the payer asks again (Try again): retrying by itself would ask the network
        // over and over while it is down.
        throw new ScreenLoadError('The screen could not be loaded', { cause: error });
      },
    );
    return loading;
  };
  function Loaded() {
    // use() on every render, never only on some: a screen already loaded is read at once.
    const Screen = use(preload());
    // eslint-disable-next-line react-hooks/static-components -- one component per screen, loaded once and the same on every render.
    return <Screen />;
  }
  function Component() {
    const [attempt, setAttempt] = useState(0);
    return (
      <ScreenLoadBoundary
        key={attempt}
        quiet={quiet}
        onRetry={() => {
          if (!loaded) loading = undefined;
          setAttempt((n) => n + 1);
        }}
      >
        <Loaded />
      </ScreenLoadBoundary>
    );
  }
  return { Component, preload };
}
