import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, renderApp } from '../test/render-app';

describe('Page not found in Kiswahili', () => {
  it('says so in Kiswahili, with the ways back named as the header names them', async () => {
    mockApi(() => undefined);
    renderApp('/nowhere');
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Language' })).getByRole('button', {
        name: 'Kiswahili',
      }),
    );
    const main = screen.getByRole('main');
    expect(
      await within(main).findByRole('heading', { level: 2, name: 'Ukurasa haukupatikana' }),
    ).toBeInTheDocument();
    expect(within(main).getByText('Hakuna kitu kwenye anwani hii.')).toBeInTheDocument();
    expect(within(main).getByRole('link', { name: 'Lipa' })).toHaveAttribute('href', '/');
    expect(within(main).getByRole('link', { name: 'Miamala' })).toHaveAttribute(
      'href',
      '/transactions',
    );
    expect(document.title).toBe('Ukurasa haukupatikana · Malipo kwa M-PESA');
  });
});
