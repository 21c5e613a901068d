import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, renderApp, summary, transaction } from '../../../test/render-app';
import { formatAmount } from '../../../lib/format';
import { axisTop } from './daily-chart';

const EMPTY = { status: 200, body: { success: true, data: [], nextCursor: null } };

/** A fortnight whose last day took 1,501 KES in two payments and lost 550 KES in three. */
function fortnight() {
  return summary({
    today: { collected: 292163, count: 3, pendingCount: 0, successCount: 2, successRate: 2 / 3 },
    daily: summary().daily.map((day, index) =>
      index === 13
        ? {
            ...day,
            byStatus: [
              { status: 'success', count: 2, amount: 1501 },
              { status: 'failed', count: 1, amount: 300 },
              { status: 'cancelled', count: 1, amount: 200 },
              { status: 'timeout', count: 1, amount: 50 },
            ],
          }
        : day,
    ),
  });
}

describe('amounts', () => {
  it('are grouped by thousands, the unit after the number', () => {
    expect(formatAmount(292163)).toBe('292,163 KES');
    expect(formatAmount(150)).toBe('150 KES');
    expect(formatAmount(1500000)).toBe('1,500,000 KES');
  });
});

describe('the 14-day chart', () => {
  it('rounds its axis up to a figure a person reads', () => {
    expect(axisTop(1501)).toBe(1600);
    expect(axisTop(2100)).toBe(2400);
    // Its half is written as the axis writes figures, with one decimal at most: not 1.25M.
    expect(axisTop(2_200_000)).toBe(2_400_000);
    expect(axisTop(40)).toBe(40);
    expect(axisTop(0)).toBe(100);
    // The best day at 103K: the axis to 120K, not 200K, where the bars would fill half the chart.
    expect(axisTop(103_000)).toBe(120_000);
    for (const highest of [1, 7, 99, 101, 1234, 31_000, 999_999, 4_500_001]) {
      expect(axisTop(highest)).toBeGreaterThanOrEqual(highest);
      expect(axisTop(highest)).toBeLessThanOrEqual(highest * 1.34);
    }
  });

  it('shows paid apart from not paid, with an axis, day labels and each day’s figures', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/summary'
        ? { status: 200, body: { success: true, data: fortnight() } }
        : call.path === '/api/mpesa/transactions'
          ? EMPTY
          : undefined,
    );
    renderApp('/transactions');
    const glance = await screen.findByRole('region', { name: 'At a glance' });
    expect(within(glance).getByText('292,163 KES')).toBeInTheDocument();

    const days = within(glance).getAllByRole('img');
    expect(days).toHaveLength(14);
    const last = days[13]!;
    // Named for screen readers, reachable by keyboard, with the same figures as its tooltip.
    expect(last).toHaveAccessibleName(/22 Nov.*, Paid: 1,501 KES \(2\), Not paid: 550 KES \(3\)$/);
    expect(last).toHaveAttribute('tabindex', '0');
    expect(last.querySelector('.chart-tip')).toHaveTextContent('Paid: 1,501 KES (2)');
    expect(last.querySelector('.chart-label')).toHaveTextContent('22');
    expect(days[0]!.querySelector('.chart-label')).toHaveTextContent('9');
    // Side by side against an axis up to 1,600: the unpaid bar is not stacked on the paid one.
    const axis = glance.querySelector('.chart-axis')!;
    expect([...axis.children].map((tick) => tick.textContent)).toEqual(['1.6K', '800', '0']);
    expect(last.querySelector<HTMLElement>('.bar-paid')!.style.height).toBe('93.81%');
    expect(last.querySelector<HTMLElement>('.bar-unpaid')!.style.height).toBe('34.38%');
    expect(last.querySelector<HTMLElement>('.bar-pending')!.style.height).toBe('0%');
    expect(days[0]).toHaveAccessibleName(/Paid: 0 KES \(0\), Not paid: 0 KES \(0\)$/);
  });
});

describe('a payment still pending', () => {
  it('is its own bar, colour and count, never "Not paid", and the rate is of the others', async () => {
    const figures = summary({
      today: { collected: 500, count: 2, pendingCount: 1, successCount: 1, successRate: 1 },
      daily: summary().daily.map((day, index) =>
        index === 13
          ? {
              ...day,
              byStatus: [
                { status: 'success', count: 1, amount: 500 },
                { status: 'pending', count: 1, amount: 3 },
              ],
            }
          : day,
      ),
    });
    mockApi((call) =>
      call.path === '/api/mpesa/summary'
        ? { status: 200, body: { success: true, data: figures } }
        : call.path === '/api/mpesa/transactions'
          ? EMPTY
          : undefined,
    );
    renderApp('/transactions');
    const glance = await screen.findByRole('region', { name: 'At a glance' });
    expect(
      within(glance).getByText('2 payments (1 still pending), 100% of the others successful'),
    ).toBeInTheDocument();
    const last = within(glance).getAllByRole('img')[13]!;
    expect(last).toHaveAccessibleName(
      /Paid: 500 KES \(1\), Pending: 3 KES \(1\), Not paid: 0 KES \(0\)$/,
    );
    // 3 KES against 500: still a sliver one can see.
    expect(last.querySelector<HTMLElement>('.bar-pending')!.style.minHeight).toBe('2px');
    expect(last.querySelector<HTMLElement>('.bar-unpaid')!.style.height).toBe('0%');
    expect(
      [...glance.querySelectorAll('.summary-legend li')].map((item) => item.textContent),
    ).toEqual(['Paid', 'Refunded', 'Pending', 'Not paid']);

    await userEvent.click(screen.getByRole('button', { name: 'Kiswahili' }));
    expect(
      await within(glance).findByText('Miamala 2 (1 bado unasubiri), 100% ya mingine imefanikiwa'),
    ).toBeInTheDocument();
    expect(within(glance).getAllByRole('img')[13]).toHaveAccessibleName(
      /Imelipwa: 500 KES \(1\), Inasubiri: 3 KES \(1\), Haijalipwa: 0 KES \(0\)$/,
    );
  });
});

describe('a period whose payments are all still pending', () => {
  it('says so, with no rate', async () => {
    const figures = summary({
      today: { collected: 0, count: 3, pendingCount: 3, successCount: 0, successRate: null },
    });
    mockApi((call) =>
      call.path === '/api/mpesa/summary'
        ? { status: 200, body: { success: true, data: figures } }
        : call.path === '/api/mpesa/transactions'
          ? EMPTY
          : undefined,
    );
    renderApp('/transactions');
    const glance = await screen.findByRole('region', { name: 'At a glance' });
    expect(within(glance).getByText('3 payments, all still pending')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Kiswahili' }));
    expect(await within(glance).findByText('Miamala 3, yote bado inasubiri')).toBeInTheDocument();
  });
});

describe('the history on a phone', () => {
  it('names each row’s link by its payment, keeping the visible "View Details"', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? {
            status: 200,
            body: { success: true, data: [transaction({ amount: 2500, status: 'failed' })] },
          }
        : undefined,
    );
    renderApp('/transactions');
    const link = await screen.findByRole('link', {
      name: 'View details of INV-42, 2,500 KES, Failed',
    });
    expect(link).toHaveTextContent(/^View Details$/);
  });

  it('says what a search found, in a live region, and moves focus to it', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? EMPTY
        : call.path === '/api/mpesa/transactions?q=INV'
          ? {
              status: 200,
              body: {
                success: true,
                data: [transaction({ _id: 'a' }), transaction({ _id: 'b', reference: 'INV-43' })],
                nextCursor: null,
              },
            }
          : undefined,
    );
    const user = userEvent.setup();
    renderApp('/transactions');
    await screen.findByText('No transactions found.');
    expect(screen.getByText('No transactions found.').closest('[role="status"]')).not.toBeNull();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'INV');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const count = await screen.findByText('2 payments found.');
    expect(count.closest('[role="status"]')).not.toBeNull();
    expect(count).toHaveFocus();
  });

  it('leaves focus alone when the history is opened, not searched', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/transactions?q=INV'
        ? { status: 200, body: { success: true, data: [transaction()], nextCursor: null } }
        : undefined,
    );
    renderApp('/transactions?q=INV');
    expect(await screen.findByText('1 payment found.')).not.toHaveFocus();
  });

  it('moves focus to the first new row after Load more, and counts what is shown', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? {
            status: 200,
            body: {
              success: true,
              data: [transaction({ _id: 'a', reference: 'INV-2', status: 'success' })],
              nextCursor: 'c1',
            },
          }
        : call.path === '/api/mpesa/transactions?cursor=c1'
          ? {
              status: 200,
              body: {
                success: true,
                data: [transaction({ _id: 'b', reference: 'INV-1', status: 'success' })],
                nextCursor: null,
              },
            }
          : undefined,
    );
    const user = userEvent.setup();
    renderApp('/transactions');
    expect(await screen.findByText('1 payment shown, more with Load more.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    const first = await screen.findByRole('link', { name: /^View details of INV-1,/ });
    expect(first).toHaveFocus();
    expect(screen.getByText('2 payments found.')).toBeInTheDocument();
  });
});
