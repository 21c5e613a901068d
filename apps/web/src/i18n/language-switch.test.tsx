import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, renderApp } from '../test/render-app';
import { LANGUAGE_KEY } from './language';

const switchTo = (name: 'Kiswahili' | 'English') =>
  within(screen.getByRole('group', { name: /^(Language|Lugha)$/ })).getByRole('button', { name });

describe('the header’s language switch', () => {
  it('shows every text of the form in Kiswahili, remembers the choice, and goes back to English', async () => {
    mockApi(() => undefined);
    renderApp('/');
    expect(switchTo('Kiswahili')).toHaveAttribute('lang', 'sw');

    await userEvent.click(switchTo('Kiswahili'));
    await screen.findByRole('heading', { level: 2, name: 'Malipo ya M-PESA' });
    expect(document.documentElement.lang).toBe('sw');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('sw');
    expect(document.title).toBe('Lipa · Malipo kwa M-PESA');
    expect(screen.getByLabelText('Nambari ya Simu')).toHaveAccessibleDescription(
      'Muundo: 07XXXXXXXX au +2547XXXXXXXX Nambari za 01… pia; nafasi zinakubalika.',
    );
    expect(screen.getByRole('link', { name: 'Miamala' })).toBeInTheDocument();
    expect(switchTo('English')).toHaveAttribute('lang', 'en');

    // The specification's checks, in Kiswahili.
    await userEvent.click(screen.getByRole('button', { name: 'Lipa kwa M-PESA' }));
    const [phoneAlert] = await screen.findAllByRole('alert');
    expect(phoneAlert).toHaveTextContent('Tafadhali weka nambari sahihi ya simu ya Kenya');
    // A message already shown changes language with the page.
    await userEvent.click(switchTo('English'));
    await screen.findByRole('heading', { level: 2, name: 'M-PESA Payment' });
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent(
      'Please enter a valid Kenyan phone number',
    );
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en');
  });

  it('puts the API’s refusal in Kiswahili by its code, and keeps the API’s words for a code it does not know', async () => {
    let code = 'MPESA_BUSY';
    mockApi((call) =>
      call.path === '/api/mpesa/stkpush'
        ? {
            status: 503,
            body: { success: false, code, message: 'M-PESA is busy (the API’s words).' },
          }
        : undefined,
    );
    renderApp('/');
    await userEvent.click(switchTo('Kiswahili'));
    await userEvent.type(await screen.findByLabelText('Nambari ya Simu'), '0712345678');
    await userEvent.type(screen.getByLabelText('Kiasi (KES)'), '10');
    await userEvent.click(screen.getByRole('button', { name: 'Lipa kwa M-PESA' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'M-PESA ina shughuli nyingi sasa hivi. Tafadhali jaribu tena baada ya dakika chache.',
    );

    code = 'SOMETHING_NEW';
    await userEvent.click(screen.getByRole('button', { name: 'Lipa kwa M-PESA' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('M-PESA is busy (the API’s words).'),
    );
  });
});
