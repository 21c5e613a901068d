import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp, transaction } from '../../../test/render-app';

afterEach(() => {
  vi.useRealTimers();
});

const DETAIL = '/api/mpesa/transactions/tx-1';
const EVENTS = '/api/mpesa/transactions/tx-1/events';

/** The transaction's timeline as the API tells it, a second after creation and on. */
function timeline(...titles: string[]) {
  return {
    status: 200,
    body: {
      success: true,
      data: titles.map((title, index) => ({
        at: new Date(Date.parse('2026-11-22T10:15:01.000Z') + index * 5000).toISOString(),
        source: index === 0 ? 'initiation' : 'callback',
        fromStatus: index === 0 ? null : 'pending',
        toStatus: 'pending',
        title,
        detail: null,
      })),
    },
  };
}

/** The scripted API, answering the timeline with one event unless the test scripts it. */
function mockDetailApi(handler: Parameters<typeof mockApi>[0]) {
  return mockApi(
    (call) =>
      handler(call) ??
      (call.path === EVENTS ? timeline('Saved before the payment request was sent') : undefined),
  );
}

function labels() {
  return Array.from(document.querySelectorAll('dt'), (dt) => dt.textContent);
}

describe('the Transaction Details screen', () => {
  it('says it is loading, then shows a pending transaction with the spinner and the two links', async () => {
    mockDetailApi((call) =>
      call.path === DETAIL
        ? { status: 200, body: { success: true, data: transaction() } }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(screen.getByRole('heading', { name: 'Transaction Details' })).toBeInTheDocument();
    expect(screen.getByText('Loading transaction details...')).toBeInTheDocument();

    expect(
      await screen.findByText('Please complete the payment on your phone.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Pending')).toHaveClass('status-badge');
    expect(document.querySelector('.spinner')).toBeInTheDocument();
    expect(labels()).toEqual(['Reference', 'Phone Number', 'Amount', 'Description', 'Created At']);
    expect(screen.getByText('150 KES')).toBeInTheDocument();
    expect(
      screen.getByText(new Date('2026-11-22T10:15:00.000Z').toLocaleString()),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Transactions' })).toHaveAttribute(
      'href',
      '/transactions',
    );
    expect(screen.getByRole('link', { name: 'Make Another Payment' })).toHaveAttribute('href', '/');
  });

  it('shows the receipt, transaction date and response only when present, and N/A for a missing date', async () => {
    mockDetailApi((call) =>
      call.path === DETAIL
        ? {
            status: 200,
            body: {
              success: true,
              data: transaction({
                status: 'success',
                createdAt: null,
                mpesaReceiptNumber: 'UF1E26WQJZ',
                transactionDate: '2026-06-14T16:36:04.000Z',
                responseDescription: 'The service request is processed successfully.',
              }),
            },
          }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('UF1E26WQJZ')).toBeInTheDocument();
    expect(labels()).toEqual([
      'Reference',
      'Phone Number',
      'Amount',
      'Description',
      'Created At',
      'M-PESA Receipt',
      'Transaction Date',
      'Response',
      'What this means',
    ]);
    expect(screen.getByText('N/A')).toBeInTheDocument();
    expect(screen.getByText('Success')).toBeInTheDocument();
    expect(
      screen.queryByText('Please complete the payment on your phone.'),
    ).not.toBeInTheDocument();
  });

  it('shows an unknown outcome like any other status, with what the merchant should check', async () => {
    const text =
      'M-PESA never confirmed the payment request within 10 minutes. Whether the payer paid is ' +
      'not known: check the M-PESA statement for a payment of 150 KES from this phone number ' +
      'before asking for the money again.';
    mockDetailApi((call) =>
      call.path === DETAIL
        ? {
            status: 200,
            body: {
              success: true,
              data: transaction({ status: 'unknown', responseDescription: text }),
            },
          }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('Unknown')).toHaveClass('status-badge', 'status-badge-unknown');
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.queryByText('Please complete the payment on your phone.')).toBeNull();
  });

  it('asks again every 5 s while pending and stops once the status is final', async () => {
    vi.useFakeTimers();
    let status = 'pending';
    const api = mockDetailApi((call) =>
      call.path === DETAIL
        ? { status: 200, body: { success: true, data: transaction({ status }) } }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.count(DETAIL)).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(api.count(DETAIL)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(api.count(DETAIL)).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(api.count(DETAIL)).toBe(3);

    status = 'cancelled';
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(api.count(DETAIL)).toBe(4);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByText('Cancelled')).toBeInTheDocument();
    expect(
      screen.queryByText('Please complete the payment on your phone.'),
    ).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(api.count(DETAIL)).toBe(4);
  });

  it('keeps showing the transaction when a poll fails, logs it, says since when it may be out of date, and recovers', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail = false;
    const api = mockDetailApi((call) =>
      call.path === DETAIL
        ? fail
          ? { status: 503, body: { success: false, message: 'down' } }
          : { status: 200, body: { success: true, data: transaction() } }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(0));
    const heard = new Date().toLocaleTimeString();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    fail = true;
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(screen.getByText('Please complete the payment on your phone.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
    const notice = screen.getByText(/this page may be out of date/);
    expect(notice).toHaveTextContent(
      `The server had a problem, so this page may be out of date. Last updated at ${heard}. Trying again every 5 seconds.`,
    );
    expect(notice.closest('[role="status"]')).toBeInTheDocument();

    // Retry asks at once; and once the server answers, the notice goes.
    const asked = api.count(DETAIL);
    fail = false;
    await act(async () => {
      screen.getByRole('button', { name: 'Retry' }).click();
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(api.count(DETAIL)).toBe(asked + 1);
    expect(screen.queryByText(/this page may be out of date/)).not.toBeInTheDocument();
  });

  it('keeps trying to load the details, and says so, until the server answers', async () => {
    vi.useFakeTimers();
    let down = true;
    const api = mockDetailApi((call) =>
      call.path === DETAIL
        ? down
          ? 'network-error'
          : { status: 200, body: { success: true, data: transaction() } }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(0));
    // Said from the first failure, while the retries go on.
    expect(screen.getByText('Loading transaction details...')).toBeInTheDocument();
    expect(
      screen.getByText(/could not be reached, so this page could not be loaded yet/),
    ).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch transaction details');
    const asked = api.count(DETAIL);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(api.count(DETAIL)).toBeGreaterThan(asked);
    // Still said between the attempts, not flickering back to "Loading".
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch transaction details');
    down = false;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getByText('Please complete the payment on your phone.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it.each([
    [
      'failed',
      '2001',
      'The M-PESA PIN was wrong, so no money moved. Try again with your M-PESA PIN.',
    ],
    ['cancelled', '1032', 'You cancelled the prompt on your phone, so no money moved.'],
    ['timeout', '1037', /Your phone could not be reached/],
    ['failed', '17', /same amount was sent from this phone less than 2 minutes ago/],
  ] as const)(
    'explains a %s payment (%s) beside M-PESA’s words, and offers to try it again',
    async (status, resultCode, sentence) => {
      mockDetailApi((call) =>
        call.path === DETAIL
          ? {
              status: 200,
              body: {
                success: true,
                data: transaction({
                  status,
                  resultCode,
                  responseDescription: 'M-PESA’s own words.',
                }),
              },
            }
          : undefined,
      );
      const { router } = renderApp('/transactions/tx-1');
      const meaning = await screen.findByText(sentence, { selector: 'dd' });
      expect(labels().slice(-2)).toEqual(['Response', 'What this means']);
      expect(meaning.closest('.detail-row')?.querySelector('dt')).toHaveTextContent(
        'What this means',
      );
      expect(screen.getByText('M-PESA’s own words.')).toBeInTheDocument();
      // The live region says the status with its reason.
      const live = document.querySelector('.transaction-status')!;
      expect(live).toHaveAttribute('aria-live', 'polite');
      expect(live.textContent).toMatch(sentence);

      await userEvent.click(screen.getByRole('link', { name: 'Try again' }));
      expect(router.state.location.pathname).toBe('/');
      expect(screen.getByLabelText('Phone Number')).toHaveValue('0712345678');
      expect(screen.getByLabelText('Amount (KES)')).toHaveValue(150);
      expect(screen.getByLabelText('Reference')).toHaveValue('INV-42');
      expect(screen.getByLabelText('Description')).toHaveValue('School fees');
    },
  );

  it.each(['pending', 'success', 'unknown'] as const)(
    'offers no "Try again" for a %s payment, which may have moved money',
    async (status) => {
      mockDetailApi((call) =>
        call.path === DETAIL
          ? { status: 200, body: { success: true, data: transaction({ status }) } }
          : undefined,
      );
      renderApp('/transactions/tx-1');
      await screen.findByRole('link', { name: 'Make Another Payment' });
      expect(screen.queryByRole('link', { name: 'Try again' })).not.toBeInTheDocument();
    },
  );

  it('says "Transaction not found" for an unknown id', async () => {
    mockDetailApi((call) =>
      call.path === '/api/mpesa/transactions/nope'
        ? {
            status: 404,
            body: {
              success: false,
              code: 'TRANSACTION_NOT_FOUND',
              message: 'Transaction not found',
            },
          }
        : undefined,
    );
    renderApp('/transactions/nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Transaction not found');
    expect(screen.queryByText('Failed to fetch transaction details')).not.toBeInTheDocument();
  });

  it('says the details could not be fetched only when loading really failed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockDetailApi((call) => (call.path === DETAIL ? 'network-error' : undefined));
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch transaction details',
    );
  });
});

describe('the timeline and the receipt on the Transaction Details screen', () => {
  const paid = transaction({
    status: 'success',
    mpesaReceiptNumber: 'UF1E26WQJZ',
    transactionDate: '2026-06-14T16:36:04.000Z',
    responseDescription: 'The service request is processed successfully.',
  });

  it('lists the events in order with their times below the specification’s rows, which stay as they are', async () => {
    mockDetailApi((call) =>
      call.path === DETAIL
        ? { status: 200, body: { success: true, data: paid } }
        : call.path === EVENTS
          ? {
              status: 200,
              body: {
                success: true,
                data: [
                  {
                    at: '2026-11-22T10:15:00.000Z',
                    source: 'initiation',
                    kind: 'saved',
                    fromStatus: null,
                    toStatus: 'pending',
                    title: 'Saved before the payment request was sent',
                    detail: null,
                    reported: null,
                    reviewer: null,
                  },
                  {
                    at: '2026-11-22T10:15:06.000Z',
                    source: 'callback',
                    kind: 'applied',
                    fromStatus: 'pending',
                    toStatus: 'success',
                    title: 'Callback: paid (receipt UF1E26WQJZ)',
                    detail: 'The service request is processed successfully.',
                    reported: { status: 'success', receipt: 'UF1E26WQJZ' },
                    reviewer: null,
                  },
                ],
              },
            }
          : undefined,
    );
    renderApp('/transactions/tx-1');
    const section = (await screen.findByRole('heading', { name: 'Timeline' })).closest('section')!;
    const items = await within(section).findAllByRole('listitem');
    expect(section.querySelector('ol')).toContainElement(items[0]!);
    // Each event in plain words; the API's own words one click away, in a closed <details>.
    expect(items.map((item) => item.querySelector('.timeline-event-title')!.textContent)).toEqual([
      'Your payment request was saved.',
      'Success M-PESA told us: paid, receipt UF1E26WQJZ.',
    ]);
    const darajaWords = items.map((item) => item.querySelector('details')!);
    expect(darajaWords.map((details) => details.open)).toEqual([false, false]);
    expect(darajaWords.map((details) => details.textContent)).toEqual([
      'Daraja’s wordsSaved before the payment request was sent',
      'Daraja’s wordsCallback: paid (receipt UF1E26WQJZ) · The service request is processed successfully.',
    ]);
    expect(items[0]!.querySelector('time')).toHaveTextContent(
      new Date('2026-11-22T10:15:00.000Z').toLocaleString(),
    );
    expect(items[1]!.querySelector('time')).toHaveAttribute('datetime', '2026-11-22T10:15:06.000Z');

    expect(labels()).toEqual([
      'Reference',
      'Phone Number',
      'Amount',
      'Description',
      'Created At',
      'M-PESA Receipt',
      'Transaction Date',
      'Response',
      'What this means',
    ]);
    for (const dl of document.querySelectorAll('dl')) {
      expect(dl.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    expect(
      section.compareDocumentPosition(screen.getByRole('link', { name: 'Back to Transactions' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('has its own loading and error texts, and the screen’s texts stay', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockDetailApi((call) =>
      call.path === DETAIL
        ? { status: 200, body: { success: true, data: transaction() } }
        : call.path === EVENTS
          ? 'network-error'
          : undefined,
    );
    renderApp('/transactions/tx-1');
    // Lost requests are tried twice more before the timeline says it could not be loaded.
    expect(await screen.findByText('Loading timeline...')).toBeInTheDocument();
    expect(screen.getByText('Please complete the payment on your phone.')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByText('The timeline could not be loaded.')).toBeInTheDocument();
    expect(api.count(EVENTS)).toBe(3);
    // And it stays said: a timeline that never loaded is not polled.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(screen.getByText('The timeline could not be loaded.')).toBeInTheDocument();
    expect(api.count(EVENTS)).toBe(3);
    expect(screen.queryByText('Loading timeline...')).not.toBeInTheDocument();
    expect(screen.getByText('Please complete the payment on your phone.')).toBeInTheDocument();
    expect(screen.getByText('Pending')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to fetch transaction details')).not.toBeInTheDocument();
  });

  it('asks for the timeline every 5 s while pending, once more when the status changes, then stops', async () => {
    vi.useFakeTimers();
    let status = 'pending';
    const api = mockDetailApi((call) =>
      call.path === DETAIL
        ? { status: 200, body: { success: true, data: transaction({ status }) } }
        : call.path === EVENTS
          ? status === 'pending'
            ? timeline('Saved before the payment request was sent', 'Accepted by M-PESA')
            : timeline(
                'Saved before the payment request was sent',
                'Accepted by M-PESA',
                'Callback: cancelled by the payer',
              )
          : undefined,
    );
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(api.count(EVENTS)).toBe(1);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);

    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(api.count(EVENTS)).toBe(2);

    status = 'cancelled';
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByText('Cancelled')).toBeInTheDocument();
    expect(screen.getByText('Callback: cancelled by the payer')).toBeInTheDocument();
    const asked = api.count(EVENTS);
    expect(asked).toBeGreaterThanOrEqual(3);

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(api.count(EVENTS)).toBe(asked);
  });

  it('keeps the timeline on screen when refreshing it fails, and only logs it', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail = false;
    mockDetailApi((call) => {
      if (call.path === DETAIL)
        return { status: 200, body: { success: true, data: transaction() } };
      if (call.path === EVENTS && fail) return { status: 503, body: { success: false } };
      return undefined;
    });
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(0));
    fail = true;
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(screen.getByText('Saved before the payment request was sent')).toBeInTheDocument();
    expect(screen.queryByText('The timeline could not be loaded.')).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith('Refreshing the timeline failed:', expect.anything());
  });

  it('copies the receipt and says "Copied" where screen readers hear it', async () => {
    const user = userEvent.setup();
    mockDetailApi((call) =>
      call.path === DETAIL ? { status: 200, body: { success: true, data: paid } } : undefined,
    );
    renderApp('/transactions/tx-1');
    const button = await screen.findByRole('button', { name: 'Copy receipt' });
    expect(button).toHaveAttribute('type', 'button');
    const said = within(button.parentElement!).getByRole('status');
    expect(said).toHaveAttribute('aria-live', 'polite');
    expect(said).toBeEmptyDOMElement();

    // By keyboard: the button focused, then Enter.
    button.focus();
    await user.keyboard('{Enter}');
    expect(await navigator.clipboard.readText()).toBe('UF1E26WQJZ');
    expect(said).toHaveTextContent('Copied');
  });

  it('says when the receipt could not be copied', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    mockDetailApi((call) =>
      call.path === DETAIL ? { status: 200, body: { success: true, data: paid } } : undefined,
    );
    renderApp('/transactions/tx-1');
    await user.click(await screen.findByRole('button', { name: 'Copy receipt' }));
    expect(
      await screen.findByText('Could not copy: select the receipt number and copy it.'),
    ).toBeInTheDocument();
  });

  it('offers no copy button without a receipt', async () => {
    mockDetailApi((call) =>
      call.path === DETAIL
        ? { status: 200, body: { success: true, data: transaction() } }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    await screen.findByRole('heading', { name: 'Timeline' });
    expect(screen.queryByRole('button', { name: 'Copy receipt' })).not.toBeInTheDocument();
  });

  it('marks a step that failed, or left the outcome unknown, in words beside its dot', async () => {
    const step = (at: string, fromStatus: string | null, toStatus: string, title: string) => ({
      at,
      source: 'query',
      fromStatus,
      toStatus,
      title,
      detail: null,
    });
    mockApi((call) => {
      if (call.path === DETAIL) {
        return { status: 200, body: { success: true, data: transaction({ status: 'failed' }) } };
      }
      if (call.path === EVENTS) {
        return {
          status: 200,
          body: {
            success: true,
            data: [
              step('2026-11-22T10:15:00.000Z', null, 'pending', 'Saved'),
              step('2026-11-22T10:25:00.000Z', 'pending', 'unknown', 'Gave up asking'),
              step('2026-11-22T10:26:00.000Z', 'unknown', 'failed', 'Callback: not paid'),
            ],
          },
        };
      }
      return undefined;
    });
    renderApp('/transactions/tx-1');
    const items = await waitForItems();
    expect(items.map((item) => item.className)).toEqual([
      'timeline-event timeline-event-step',
      'timeline-event timeline-event-unknown',
      'timeline-event timeline-event-failed',
    ]);
    expect(within(items[1]!).getByText('Unknown')).toHaveClass('timeline-mark');
    expect(within(items[2]!).getByText('Failed')).toHaveClass('timeline-mark');
    expect(within(items[0]!).queryByText(/Pending|Unknown|Failed/)).toBeNull();
  });
});

async function waitForItems(): Promise<HTMLElement[]> {
  await screen.findByText('Callback: not paid');
  return Array.from(document.querySelectorAll<HTMLElement>('.timeline-list li'));
}
