import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { emptyHistory, mockApi, renderApp, summary, transaction } from '../../../test/render-app';

function chooseLanguage(name: 'English' | 'Kiswahili') {
  const group = screen.getByRole('group', { name: /^(Language|Lugha)$/ });
  return userEvent.click(within(group).getByRole('button', { name }));
}

/** Two pages of one payment each; a fortnight whose last day (Sunday 22 November) took money. */
function history() {
  return mockApi((call) => {
    if (call.path === '/api/mpesa/transactions') {
      return {
        status: 200,
        body: {
          success: true,
          data: [transaction({ _id: 'a', reference: 'INV-2', status: 'success', amount: 1500 })],
          nextCursor: 'c1',
        },
      };
    }
    if (call.path === '/api/mpesa/transactions?cursor=c1') {
      return {
        status: 200,
        body: {
          success: true,
          data: [transaction({ _id: 'b', reference: 'INV-1', status: 'cancelled', amount: 90 })],
          nextCursor: null,
        },
      };
    }
    if (call.path === '/api/mpesa/summary') {
      const daily = summary().daily.map((day, index) =>
        index === 13
          ? {
              ...day,
              byStatus: [
                { status: 'success', count: 2, amount: 1501 },
                { status: 'failed', count: 3, amount: 550 },
              ],
            }
          : day,
      );
      const today = {
        collected: 292163,
        count: 3,
        pendingCount: 0,
        successCount: 2,
        successRate: 2 / 3,
      };
      return { status: 200, body: { success: true, data: summary({ today, daily }) } };
    }
    return undefined;
  });
}

describe('the Transaction History in Kiswahili', () => {
  it('shows the title, the rows, the figures and the chart in Kiswahili, and goes back to English', async () => {
    history();
    renderApp('/transactions');
    await screen.findByText('INV-2');
    await chooseLanguage('Kiswahili');

    expect(
      await screen.findByRole('heading', { level: 2, name: 'Historia ya Miamala' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Miamala · Malipo kwa M-PESA');
    const table = screen.getByRole('table', { name: 'Historia ya Miamala' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Kumbukumbu', 'Nambari ya Simu', 'Kiasi', 'Hali', 'Tarehe', 'Kitendo']);
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getByText('Imefanikiwa')).toHaveClass('status-badge');
    expect(within(row!).getByText('1,500 KES')).toBeInTheDocument();
    const link = within(row!).getByRole('link', {
      name: 'Angalia maelezo ya INV-2, 1,500 KES, Imefanikiwa',
    });
    expect(link).toHaveTextContent(/^Angalia Maelezo$/);
    expect(screen.getByText('Muamala 1 unaonyeshwa, zaidi kwa Pakia zaidi.')).toBeInTheDocument();
    // The file's header row in Kiswahili too (the API writes it, `lang=sw`).
    expect(screen.getByRole('link', { name: 'Pakua CSV' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/api\/mpesa\/transactions\/export(\?.*&|\?)lang=sw$/),
    );

    // The figures at a glance and the chart, numbers and days as Kiswahili writes them.
    const glance = screen.getByRole('region', { name: 'Kwa muhtasari' });
    expect(within(glance).getByRole('heading', { name: 'Leo' })).toBeInTheDocument();
    expect(within(glance).getByText('292,163 KES')).toBeInTheDocument();
    expect(within(glance).getByText('Miamala 3, 67% imefanikiwa')).toBeInTheDocument();
    expect(
      within(glance).getByText('Kiasi kwa siku na hali, siku 14 zilizopita'),
    ).toBeInTheDocument();
    const lastDay = within(glance).getAllByRole('img')[13]!;
    expect(lastDay).toHaveAccessibleName(
      'Jumapili, 22 Nov, Imelipwa: 1,501 KES (2), Haijalipwa: 550 KES (3)',
    );
    expect(lastDay.querySelector('.chart-tip')).toHaveTextContent('Imelipwa: 1,501 KES (2)');
    const axis = glance.querySelector('.chart-axis')!;
    // Intl joins "elfu" and its figure with a no-break space, which keeps them on one line.
    expect([...axis.children].map((tick) => tick.textContent)).toEqual([
      'elfu\u00a01.6',
      '800',
      '0',
    ]);
    const chartTable = within(glance).getByRole('table', {
      name: 'Kiasi kwa KES kwa siku na hali, siku 14 zilizopita',
    });
    expect(
      within(chartTable)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Siku',
      'Imefanikiwa',
      'Imerudishwa',
      'Inasubiri',
      'Imeshindwa',
      'Imeghairiwa',
      'Muda umekwisha',
      'Nyingine',
    ]);

    // Load more, in Kiswahili, brings the next page and moves focus to its first row.
    await userEvent.click(screen.getByRole('button', { name: 'Pakia zaidi' }));
    expect(
      await screen.findByRole('link', { name: 'Angalia maelezo ya INV-1, 90 KES, Imeghairiwa' }),
    ).toHaveFocus();
    expect(screen.getByText('Miamala 2 imepatikana.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pakia zaidi' })).not.toBeInTheDocument();

    await chooseLanguage('English');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Transaction History' }),
    ).toBeInTheDocument();
    expect(screen.getByText('2 payments found.')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'View details of INV-2, 1,500 KES, Success' }),
    ).toHaveTextContent(/^View Details$/);
    expect(
      screen.getByRole('region', { name: 'At a glance' }).querySelector('.chart-axis'),
    ).toHaveTextContent('1.6K');
    expect(document.title).toBe('Transactions · M-PESA Payment Integration');
  });

  it('searches in Kiswahili and says how many it found, with focus on the count', async () => {
    const api = mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? { status: 200, body: { success: true, data: [], nextCursor: null } }
        : call.path === '/api/mpesa/transactions?status=success&q=INV'
          ? {
              status: 200,
              body: {
                success: true,
                data: [
                  transaction({ _id: 'a', status: 'success' }),
                  transaction({ _id: 'b', reference: 'INV-43', status: 'success' }),
                ],
                nextCursor: null,
              },
            }
          : undefined,
    );
    const user = userEvent.setup();
    renderApp('/transactions');
    await screen.findByText('No transactions found.');
    await chooseLanguage('Kiswahili');
    expect(await screen.findByText('Hakuna miamala iliyopatikana.')).toBeInTheDocument();

    const form = screen.getByRole('search', { name: 'Tafuta miamala' });
    const box = within(form).getByRole('searchbox', { name: 'Tafuta' });
    expect(box).toHaveAttribute(
      'placeholder',
      'Simu au tarakimu 4 za mwisho, risiti au kumbukumbu',
    );
    expect(within(form).getByRole('group', { name: 'Hali' })).toBeInTheDocument();
    expect(within(form).getByLabelText('Kuanzia')).toHaveAttribute('type', 'date');
    expect(within(form).getByLabelText('Hadi')).toHaveAttribute('type', 'date');
    expect(within(form).getByRole('link', { name: 'Ondoa vichujio' })).toBeInTheDocument();
    await user.type(box, 'INV');
    await user.click(within(form).getByRole('checkbox', { name: 'Imefanikiwa' }));
    await user.click(within(form).getByRole('button', { name: 'Chuja' }));

    const count = await screen.findByText('Miamala 2 imepatikana.');
    expect(count.closest('[role="status"]')).not.toBeNull();
    expect(count).toHaveFocus();
    expect(api.count('/api/mpesa/transactions?status=success&q=INV')).toBe(1);
  });

  it('names the days the filters hold in Kiswahili words, whatever format the date fields write', async () => {
    emptyHistory();
    renderApp('/transactions?from=2026-11-02&to=2026-11-29');
    await screen.findByText('No transactions found.');
    await chooseLanguage('Kiswahili');
    expect(await screen.findByText('Malipo ya 2 Novemba 2026 hadi 29 Novemba 2026.')).toBeVisible();
  });

  it('says in Kiswahili that the list could not be loaded, and offers to try again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let down = true;
      mockApi((call) =>
        call.path === '/api/mpesa/transactions'
          ? down
            ? 'network-error'
            : { status: 200, body: { success: true, data: [transaction()], nextCursor: null } }
          : undefined,
      );
      renderApp('/transactions');
      await chooseLanguage('Kiswahili');
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await screen.findByRole('alert')).toHaveTextContent('Imeshindwa kupakia miamala');
      expect(
        screen.getByText(
          'Seva haikuweza kufikiwa, kwa hiyo ukurasa huu bado haujaweza kufunguka. Tunajaribu tena kila sekunde 5.',
        ),
      ).toBeInTheDocument();

      down = false;
      await userEvent.click(screen.getByRole('button', { name: 'Pakia upya' }));
      expect(await screen.findByText('Inasubiri', { selector: '.status-badge' })).toBeVisible();
      expect(screen.queryByRole('button', { name: 'Pakia upya' })).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
