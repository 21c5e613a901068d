/** Refunded payments and till or paybill payments in the history, the figures and a payment's page. */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { chooseLanguage } from '../../../i18n/words';
import { mockApi, renderApp, summary, transaction } from '../../../test/render-app';

const DETAIL = '/api/mpesa/transactions/tx-1';
const answer = (data: unknown) => ({ status: 200, body: { success: true, data } });
const list = (rows: unknown[]) => ({
  status: 200,
  body: { success: true, data: rows, nextCursor: null },
});

describe('till, paybill and refunded payments in the history', () => {
  it('tags a till or paybill payment in its Reference cell, the columns staying the specification’s', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? list([
            transaction({ _id: 'a', channel: 'till', reference: '', status: 'success' }),
            transaction({ _id: 'b', channel: 'paybill', reference: 'ACC-7', status: 'refunded' }),
            transaction({ _id: 'c', reference: 'INV-42', status: 'success' }),
          ])
        : undefined,
    );
    renderApp('/transactions');
    await screen.findByText('INV-42');
    const table = screen.getByRole('table', { name: 'Transaction History' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Reference', 'Phone Number', 'Amount', 'Status', 'Date', 'Action']);
    const [till, paybill, prompt] = within(table).getAllByRole('row').slice(1);
    // A till payment has no reference: the tag alone, which names its link too.
    expect(within(till!).getAllByRole('cell')[0]).toHaveTextContent(/^Till$/);
    expect(within(till!).getByRole('link')).toHaveAccessibleName(/^View details of Till, 150 KES/);
    expect(within(paybill!).getAllByRole('cell')[0]).toHaveTextContent('Paybill ACC-7');
    expect(paybill).toHaveClass('row-status-refunded');
    expect(within(paybill!).getByText('Refunded')).toHaveClass('status-badge-refunded');
    expect(within(prompt!).getAllByRole('cell')[0]).toHaveTextContent(/^INV-42$/);
  });

  it('keeps how they came in the address, with the other filters, and asks the API for it', async () => {
    const api = mockApi((call) =>
      call.path.startsWith('/api/mpesa/transactions') ? list([]) : undefined,
    );
    const user = userEvent.setup();
    const { router } = renderApp('/transactions');
    await screen.findByText('No transactions found.');
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'How it was paid' }),
      'Till (from the customer’s menu)',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Refunded' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const expected = '?status=refunded&channel=till';
    expect(router.state.location.search).toBe(expected);
    await screen.findByText('No transactions found.');
    expect(api.count(`/api/mpesa/transactions${expected}`)).toBe(1);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/mpesa/transactions/export${expected}`,
    );
    expect(screen.getByRole('combobox', { name: 'How it was paid' })).toHaveValue('till');

    // Back to every channel.
    await user.selectOptions(screen.getByRole('combobox', { name: 'How it was paid' }), 'All');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(router.state.location.search).toBe('?status=refunded');
  });

  it('says collected is net of refunds, and counts refunds in the chart and its table', async () => {
    const daily = summary().daily.map((day, index) =>
      index === 13
        ? {
            ...day,
            byStatus: [
              { status: 'success', count: 2, amount: 1000 },
              { status: 'refunded', count: 1, amount: 450 },
            ],
          }
        : day,
    );
    const period = { count: 3, pendingCount: 0, successCount: 3, successRate: 1 };
    mockApi((call) =>
      call.path === '/api/mpesa/summary'
        ? answer(
            summary({
              today: { ...period, collected: 1000, refunded: 450, refundedCount: 1 },
              last7Days: { ...period, collected: 1000, refunded: 0, refundedCount: 0 },
              daily,
            }),
          )
        : call.path === '/api/mpesa/transactions'
          ? list([])
          : undefined,
    );
    renderApp('/transactions');
    const glance = await screen.findByRole('region', { name: 'At a glance' });
    expect(
      within(glance).getByText('Collected, after 450 KES refunded (1 payment)'),
    ).toBeInTheDocument();
    expect(within(glance).getByText('Collected, no refunds')).toBeInTheDocument();
    const days = within(glance).getAllByRole('img');
    expect(days[13]).toHaveAccessibleName(
      /Paid: 1,000 KES \(2\), Refunded: 450 KES \(1\), Not paid: 0 KES \(0\)$/,
    );
    expect(days[12]).not.toHaveAccessibleName(/Refunded/);
    const table = within(glance).getByRole('table');
    expect(within(table).getAllByRole('columnheader')[2]).toHaveTextContent('Refunded');
    const lastDay = within(table).getByRole('row', { name: /2026-11-22/ });
    expect(
      within(lastDay)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['1,000', '450', '0', '0', '0', '0', '0']);
  });
});

describe('a refunded payment, and a till payment, on its page', () => {
  it("tells the payer the money has gone back, with no 'Try again', in both languages", async () => {
    localStorage.setItem('mpesa.ownPayments', JSON.stringify(['tx-1']));
    mockApi((call) =>
      call.path === DETAIL
        ? answer(
            transaction({
              view: 'payer',
              status: 'refunded',
              resultCode: '0',
              phoneNumber: '0712 ••• 678',
              createdAt: new Date().toISOString(),
            }),
          )
        : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(
      await screen.findByText(
        'This payment was refunded: the money has gone back to your M-PESA.',
        { selector: 'dd' },
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Refunded', { selector: '.status-badge' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Try again' })).not.toBeInTheDocument();

    await act(() => chooseLanguage('sw'));
    expect(
      await screen.findByText('Malipo haya yamerudishwa: pesa zimerudi kwenye M-PESA yako.', {
        selector: 'dd',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('Imerudishwa', { selector: '.status-badge' })).toBeInTheDocument();
    localStorage.clear();
  });

  it('names how a till payment came and its payer, after the specification’s rows', async () => {
    mockApi((call) =>
      call.path === DETAIL
        ? answer(
            transaction({
              status: 'success',
              channel: 'till',
              reference: '',
              description: '',
              payerName: 'Jane W',
              mpesaReceiptNumber: 'UAB1C2D3E4',
              linkId: 'link-1',
            }),
          )
        : call.path === `${DETAIL}/events`
          ? answer([])
          : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('Jane W')).toBeInTheDocument();
    const labels = Array.from(document.querySelectorAll('dt'), (dt) => dt.textContent);
    expect(labels.slice(0, 7)).toEqual([
      'Reference',
      'Phone Number',
      'Amount',
      'Description',
      'Created At',
      'Paid through',
      'Payer’s name',
    ]);
    // Paid for one of the shop's payment links (its reference typed at the till).
    expect(labels[7]).toBe('Payment link');
    expect(screen.getByText('Paid through one of the shop’s payment links')).toBeInTheDocument();
    expect(
      screen.getByText('Till (Lipa na M-PESA, from the phone’s own menu)'),
    ).toBeInTheDocument();
    // The customer typed neither at the till: the rows say so rather than stand empty.
    const value = (label: string) =>
      [...document.querySelectorAll('.detail-row')]
        .find((row) => row.querySelector('dt')?.textContent === label)
        ?.querySelector('dd')?.textContent;
    expect([value('Reference'), value('Description')]).toEqual(['None given', 'None given']);
    await userEvent.click(screen.getByRole('button', { name: 'Kiswahili' }));
    await screen.findByText('Kumbukumbu');
    expect([value('Kumbukumbu'), value('Maelezo')]).toEqual(['Hakuna', 'Hakuna']);
    expect(value('Kiungo cha malipo')).toBe('Imelipwa kupitia kiungo cha malipo cha duka');
  });
});
