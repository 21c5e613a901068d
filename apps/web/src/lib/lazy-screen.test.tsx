import { Component, Suspense, type ReactNode } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { lazyScreen, SCREEN_LOAD_FAILED } from './lazy-screen';

describe('a screen loaded on demand', () => {
  it('offers to try again when its code could not be downloaded, and then shows it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi
      .fn<() => Promise<() => React.JSX.Element>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce(() => <h1>The history</h1>);
    const { Component: Screen } = lazyScreen(load);
    await act(async () => {
      render(
        <Suspense fallback={<p>Loading…</p>}>
          <Screen />
        </Suspense>,
      );
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(SCREEN_LOAD_FAILED);
    await act(async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    });
    expect(await screen.findByRole('heading', { name: 'The history' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('lets an error of the screen itself go on to the boundary above', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    class Outer extends Component<{ children: ReactNode }, { error: string | null }> {
      override state = { error: null as string | null };
      static getDerivedStateFromError(error: Error) {
        return { error: error.message };
      }
      override render() {
        return this.state.error ? <p>Outer caught: {this.state.error}</p> : this.props.children;
      }
    }
    const { Component: Screen } = lazyScreen(async () => () => {
      throw new Error('a bug in the screen');
    });
    await act(async () => {
      render(
        <Outer>
          <Suspense fallback={null}>
            <Screen />
          </Suspense>
        </Outer>,
      );
    });
    expect(await screen.findByText('Outer caught: a bug in the screen')).toBeInTheDocument();
    expect(screen.queryByText(SCREEN_LOAD_FAILED)).toBeNull();
  });
});
