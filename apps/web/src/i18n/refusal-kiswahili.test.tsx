import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp } from '../test/render-app';

afterEach(() => localStorage.clear());

/** The form in Kiswahili, filled with a good phone number and the given amount, then sent. */
async function payInKiswahili(amount: string) {
  renderApp('/');
  await userEvent.click(
    within(screen.getByRole('group', { name: 'Language' })).getByRole('button', {
      name: 'Kiswahili',
    }),
  );
  await screen.findByRole('heading', { level: 2, name: 'Malipo ya M-PESA' });
  fireEvent.change(screen.getByLabelText('Nambari ya Simu'), { target: { value: '0712345678' } });
  fireEvent.change(screen.getByLabelText('Kiasi (KES)'), { target: { value: amount } });
  fireEvent.click(screen.getByRole('button', { name: 'Lipa kwa M-PESA' }));
}

const refuse = (status: number, body: Record<string, unknown>, headers = {}) =>
  mockApi((call) =>
    call.method === 'POST' ? { status, body: { success: false, ...body }, headers } : undefined,
  );

describe('the API’s refusals, read in Kiswahili', () => {
  it('names the field the API found wrong in Kiswahili', async () => {
    refuse(400, {
      code: 'VALIDATION_ERROR',
      field: 'amount',
      message: 'amount must be at most 250000',
    });
    await payInKiswahili('300000');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Tafadhali weka kiasi sahihi: shilingi nzima, kuanzia 1 hadi 250,000 KES.',
    );
  });

  it('keeps the API’s English for a field it has no Kiswahili for, rather than saying nothing', async () => {
    refuse(400, {
      code: 'VALIDATION_ERROR',
      field: 'callbackUrl',
      message: 'callbackUrl must be an https address',
    });
    await payInKiswahili('10');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'callbackUrl must be an https address',
    );
  });

  it('says a busy phone may already have paid, and how long to wait before another prompt', async () => {
    refuse(
      429,
      { code: 'PHONE_BUSY', message: 'A payment request is already waiting on this phone.' },
      { 'retry-after': '45' },
    );
    await payInKiswahili('10');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('huenda limekwisha kulipwa');
    expect(alert).toHaveTextContent('Ombi jipya linaweza kutumwa baada ya sekunde 45.');
  });
});
