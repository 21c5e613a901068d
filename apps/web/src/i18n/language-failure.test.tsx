import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../test/render-app';
import { LANGUAGE_KEY } from './language';

// The form's Kiswahili cannot be downloaded (the network dropped as it was asked for).
vi.mock('../features/payments/payment-words.sw', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('Kiswahili whose words cannot be fetched', () => {
  it('leaves the page whole in English, says so, and still offers Kiswahili', async () => {
    mockApi(() => undefined);
    renderApp('/');
    const header = within(screen.getByRole('banner'));
    await userEvent.click(header.getByRole('button', { name: 'Kiswahili' }));

    expect(await header.findByRole('alert')).toHaveTextContent(
      'Kiswahili could not be loaded. Check your connection and try again.',
    );
    // Not half in each language: the shell's Kiswahili came, the form's did not, so neither shows.
    expect(screen.getByRole('heading', { level: 2, name: 'M-PESA Payment' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Transactions' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBeNull();
    expect(header.getByRole('button', { name: 'Kiswahili' })).not.toHaveAttribute(
      'aria-busy',
      'true',
    );
  });
});
