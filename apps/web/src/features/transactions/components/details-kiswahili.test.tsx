import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { formatAmount, formatDate } from '../../../lib/format';
import { mockApi, renderApp, transaction } from '../../../test/render-app';

const DETAIL = '/api/mpesa/transactions/tx-1';
const EVENTS = '/api/mpesa/transactions/tx-1/events';
const WRONG_PIN = 'The initiator information is invalid.';

afterEach(() => localStorage.clear());

const answer = (data: unknown) => ({ status: 200, body: { success: true, data } });

async function inKiswahili() {
  await userEvent.click(
    within(screen.getByRole('group', { name: 'Language' })).getByRole('button', {
      name: 'Kiswahili',
    }),
  );
  await screen.findByRole('heading', { level: 2, name: 'Maelezo ya Muamala' });
}

/** The page's rows, label and value. */
/** Each row's label and value; a value folded away (M-PESA's English) as "▸ <what opens it>". */
function rows() {
  return Array.from(document.querySelectorAll('.detail-row'), (row) => {
    const folded = row.querySelector('dd details:not([open]) > summary');
    return [
      row.querySelector('dt')!.textContent,
      folded ? `▸ ${folded.textContent}` : row.querySelector('dd')!.textContent,
    ];
  });
}

/** M-PESA's own text, one click away behind the Response row's words. */
async function openResponse(): Promise<HTMLElement> {
  await userEvent.click(screen.getByText('Kwa Kiingereza, kama M-PESA ilivyoandika'));
  const text = document.querySelector<HTMLElement>('.detail-row dd details[open] [lang="en"]');
  if (!text) throw new Error('M-PESA’s text did not open');
  return text;
}

describe('a payment’s page in Kiswahili, the payer’s view', () => {
  it('says the defaults of fields the payer left empty in Kiswahili, and in English as stored', async () => {
    mockApi((call) =>
      call.path === DETAIL
        ? answer(transaction({ reference: 'Payment', description: 'Payment for services' }))
        : call.path === EVENTS
          ? answer([])
          : undefined,
    );
    renderApp('/transactions/tx-1');
    await screen.findByText('Payment for services');
    expect(rows().slice(0, 4)).toEqual([
      ['Reference', 'Payment'],
      ['Phone Number', '254712345678'],
      ['Amount', expect.any(String)],
      ['Description', 'Payment for services'],
    ]);
    await inKiswahili();
    expect(rows().filter(([label]) => label === 'Kumbukumbu' || label === 'Maelezo')).toEqual([
      ['Kumbukumbu', 'Malipo'],
      ['Maelezo', 'Malipo ya huduma'],
    ]);
  });

  it('shows a paid payment: Imefanikiwa, its receipt, the rows and buttons in Kiswahili', async () => {
    mockApi((call) =>
      call.path === DETAIL
        ? answer(
            transaction({
              status: 'success',
              amount: 1500,
              resultCode: '0',
              mpesaReceiptNumber: 'UF1E26WQJZ',
              transactionDate: '2026-06-14T16:36:04.000Z',
              responseDescription: 'The service request is processed successfully.',
            }),
          )
        : call.path === EVENTS
          ? answer([])
          : undefined,
    );
    renderApp('/transactions/tx-1');
    await screen.findByText('UF1E26WQJZ');
    await inKiswahili();

    expect(screen.getByText('Imefanikiwa', { selector: '.status-badge' })).toBeInTheDocument();
    expect(rows()).toEqual([
      ['Kumbukumbu', 'INV-42'],
      ['Nambari ya Simu', '254712345678'],
      ['Kiasi', formatAmount(1500, 'sw')],
      ['Maelezo', 'School fees'],
      ['Tarehe ya kuundwa', formatDate('2026-11-22T10:15:00.000Z', 'sw')],
      ['Risiti ya M-PESA', 'UF1E26WQJZ'],
      ['Tarehe ya Muamala', formatDate('2026-06-14T16:36:04.000Z', 'sw')],
      ['Jibu la M-PESA', '▸ Kwa Kiingereza, kama M-PESA ilivyoandika'],
      ['Maana yake', 'Umelipa. M-PESA itakutumia ujumbe wa uthibitisho.'],
    ]);
    expect((await openResponse()).textContent).toBe(
      'The service request is processed successfully.',
    );
    expect(screen.getByRole('button', { name: 'Nakili risiti' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rudi kwenye Miamala' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Fanya Malipo Mengine' })).toBeInTheDocument();
    expect(document.title).toMatch(/^Maelezo ya Muamala · /);

    // userEvent.setup() gives the page a clipboard, as the English copy test has it.
    await userEvent.setup().click(screen.getByRole('button', { name: 'Nakili risiti' }));
    expect(await navigator.clipboard.readText()).toBe('UF1E26WQJZ');
    expect(await screen.findByText('Imenakiliwa')).toHaveAttribute('role', 'status');
  });

  it('tells a payer whose PIN was wrong (2001) in Kiswahili, with Daraja’s text one click away in the Response row', async () => {
    localStorage.setItem('mpesa.ownPayments', JSON.stringify(['tx-1']));
    mockApi((call) =>
      call.path === DETAIL
        ? answer(
            transaction({
              view: 'payer',
              status: 'failed',
              resultCode: '2001',
              responseDescription: WRONG_PIN,
              createdAt: new Date(Date.now() - 60_000).toISOString(),
            }),
          )
        : undefined,
    );
    renderApp('/transactions/tx-1');
    await screen.findByText(WRONG_PIN);
    await inKiswahili();

    expect(screen.getByText('Imeshindwa', { selector: '.status-badge' })).toBeInTheDocument();
    // The explanation in Kiswahili is what the payer reads; M-PESA's English is folded away.
    expect(rows().slice(-2)).toEqual([
      ['Jibu la M-PESA', '▸ Kwa Kiingereza, kama M-PESA ilivyoandika'],
      [
        'Maana yake',
        'PIN ya M-PESA haikuwa sahihi, kwa hiyo hakuna pesa iliyotoka. Jaribu tena ukitumia PIN yako ya M-PESA.',
      ],
    ]);
    expect(screen.getByRole('link', { name: 'Jaribu tena' })).toBeInTheDocument();
    expect((await openResponse()).textContent).toBe(WRONG_PIN);
  });

  it('tells a payer whose payment M-PESA confirmed without a receipt number where to find it, in both languages', async () => {
    // "I have paid" (or the reconciler) settled it by asking M-PESA, whose answer has no receipt.
    mockApi((call) =>
      call.path === DETAIL
        ? answer(
            transaction({
              view: 'payer',
              status: 'success',
              resultCode: '0',
              mpesaReceiptNumber: null,
              responseDescription: 'The service request is processed successfully.',
            }),
          )
        : undefined,
    );
    renderApp('/transactions/tx-1');
    await screen.findByText('Success', { selector: '.status-badge' });
    expect(rows().at(-1)).toEqual([
      'What this means',
      'You paid. The receipt number is in the confirmation message M-PESA sent to your phone.',
    ]);
    expect(screen.queryByText('M-PESA Receipt')).toBeNull();
    await inKiswahili();
    expect(rows().at(-1)).toEqual([
      'Maana yake',
      'Umelipa. Nambari ya risiti iko kwenye ujumbe wa uthibitisho ambao M-PESA imetuma kwenye simu yako.',
    ]);
  });

  it('asks a pending payer in Kiswahili to complete the payment', async () => {
    mockApi((call) => (call.path === DETAIL ? answer(transaction({ view: 'payer' })) : undefined));
    renderApp('/transactions/tx-1');
    await screen.findByText('Please complete the payment on your phone.');
    await inKiswahili();
    expect(screen.getByText('Tafadhali kamilisha malipo kwenye simu yako.')).toBeInTheDocument();
    expect(screen.getByText('Inasubiri', { selector: '.status-badge' })).toBeInTheDocument();
  });
});

describe('a payment’s page in Kiswahili, the merchant’s view', () => {
  function mockMerchant(events: unknown[]) {
    localStorage.setItem('mpesa.signedIn', '1');
    return mockApi((call) => {
      if (call.path === DETAIL) {
        return answer(
          transaction({
            view: 'merchant',
            status: 'failed',
            resultCode: '2001',
            responseDescription: WRONG_PIN,
            merchant: {
              flaggedReason: null,
              mayReview: false,
              customerMessage: 'Success. Request accepted for processing',
              callbacks: [],
            },
          }),
        );
      }
      if (call.path === EVENTS) return answer(events);
      if (call.path === '/api/auth/me') return answer({ name: 'Amina', role: 'viewer' });
      return undefined;
    });
  }

  const event = (
    at: string,
    [source, kind]: [string, string],
    fromStatus: string | null,
    toStatus: string,
    title: string,
    detail: string | null = null,
    reported: { status: string; receipt: string | null } | null = null,
  ) => ({ at, source, kind, fromStatus, toStatus, title, detail, reported, reviewer: null });

  it('says what it means and why for the shop, with Daraja’s text one click away', async () => {
    mockMerchant([]);
    renderApp('/transactions/tx-1');
    await screen.findByText('M-PESA’s own messages');
    await inKiswahili();

    expect(rows().slice(0, 2)).toEqual([
      ['Kumbukumbu', 'INV-42'],
      ['Nambari ya Simu', '254712345678'],
    ]);
    expect(screen.getByText('Maana yake').nextSibling).toHaveTextContent(
      'M-PESA haikukamilisha malipo haya. Hakuna pesa iliyotoka.',
    );
    expect(screen.getByText('Sababu').nextSibling).toHaveTextContent(
      'Mteja aliweka PIN ya M-PESA isiyo sahihi.',
    );
    // Daraja's own words are not said outright, and are one click away.
    const raw = screen.getByText('Jumbe za M-PESA zenyewe').closest('details')!;
    expect(raw).not.toHaveAttribute('open');
    await userEvent.click(screen.getByText('Jumbe za M-PESA zenyewe'));
    expect(within(raw).getByText(WRONG_PIN)).toBeVisible();
    expect(within(raw).getByText('2001')).toBeVisible();
    expect(screen.getAllByText(WRONG_PIN)).toHaveLength(1);
    expect(screen.queryByRole('link', { name: 'Jaribu tena' })).not.toBeInTheDocument();
  });

  it('tells the timeline in the table’s words, marking a failure and an unknown outcome', async () => {
    mockMerchant([
      event(
        '2026-11-22T10:15:00.000Z',
        ['initiation', 'saved'],
        null,
        'pending',
        'Saved before the payment request was sent',
      ),
      event(
        '2026-11-22T10:25:00.000Z',
        ['reconciliation', 'gave_up'],
        'pending',
        'unknown',
        'Reconciliation gave up: outcome unknown',
        'M-PESA gave no result for this payment within 10 minutes',
      ),
      event(
        '2026-11-22T10:26:00.000Z',
        ['callback', 'settled_unknown'],
        'unknown',
        'failed',
        'Callback: failed, settling the unknown outcome',
        WRONG_PIN,
        { status: 'failed', receipt: null },
      ),
    ]);
    renderApp('/transactions/tx-1');
    await screen.findByText('M-PESA told us: not paid. This settles the unknown outcome.', {
      exact: false,
    });
    await inKiswahili();

    const timeline = screen.getByRole('region', { name: 'Matukio' });
    const items = within(timeline).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.timeline-event-title')!.textContent)).toEqual([
      'Ombi la malipo lilihifadhiwa kabla ya kutumwa kwa M-PESA.',
      'Haijulikani Tuliacha kuuliza M-PESA: matokeo hayajulikani.',
      'Imeshindwa M-PESA ilituambia: hayakulipwa. Hili linamaliza matokeo yaliyokuwa hayajulikani.',
    ]);
    expect(within(items[1]!).getByText('Haijulikani')).toHaveClass('timeline-mark');
    expect(within(items[2]!).getByText('Imeshindwa')).toHaveClass('timeline-mark');
    expect(items[2]!.querySelector('time')).toHaveTextContent(
      formatDate('2026-11-22T10:26:00.000Z', 'sw'),
    );
    // The API's own words, one click away.
    const daraja = within(items[2]!).getByText('Maneno ya M-PESA yenyewe').closest('details')!;
    expect(daraja).not.toHaveAttribute('open');
    await userEvent.click(within(items[2]!).getByText('Maneno ya M-PESA yenyewe'));
    expect(within(daraja).getByText(/settling the unknown outcome/)).toBeVisible();
    expect(within(daraja).getByText(/settling the unknown outcome/)).toHaveTextContent(WRONG_PIN);
  });
});

describe('"I have paid" and the review in Kiswahili', () => {
  it('offers "Nimelipa" and says what M-PESA found, changing language with the page', async () => {
    mockApi((call) => {
      const pending = transaction({ createdAt: new Date(Date.now() - 20_000).toISOString() });
      if (call.path === DETAIL) return answer(pending);
      if (call.path === EVENTS) return answer([]);
      if (call.path === `${DETAIL}/check`) {
        return { status: 200, body: { success: true, found: 'processing', data: pending } };
      }
      return undefined;
    });
    renderApp('/transactions/tx-1');
    await screen.findByRole('button', { name: 'I have paid' });
    await inKiswahili();
    await userEvent.click(screen.getByRole('button', { name: 'Nimelipa' }));
    const said =
      'M-PESA bado haijapokea malipo yako. Ikiwa umeweka PIN yako, subiri sekunde chache kisha uulize tena.';
    expect(await screen.findByText(said)).toHaveAttribute('role', 'status');
    // Already said, it follows the switch back to English.
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Lugha' })).getByRole('button', {
        name: 'English',
      }),
    );
    expect(
      await screen.findByText(
        'M-PESA has not received your payment yet. If you have entered your PIN, wait a few seconds and ask again.',
      ),
    ).toBeInTheDocument();
  });

  it('lets an owner review an unknown payment in Kiswahili', async () => {
    localStorage.setItem('mpesa.signedIn', '1');
    const reviews: unknown[] = [];
    mockApi((call) => {
      if (call.path === DETAIL) {
        return answer(
          transaction({
            view: 'merchant',
            status: 'unknown',
            merchant: {
              flaggedReason: null,
              mayReview: true,
              customerMessage: null,
              callbacks: [],
            },
          }),
        );
      }
      if (call.path === EVENTS) return answer([]);
      if (call.path === '/api/auth/me') return answer({ name: 'Amina', role: 'owner' });
      if (call.path === '/api/auth/csrf') return answer({ token: 'csrf-1' });
      if (call.path === `${DETAIL}/review`) {
        reviews.push(call.body);
        return answer(transaction({ status: 'success' }));
      }
      return undefined;
    });
    renderApp('/transactions/tx-1');
    await screen.findByRole('button', { name: 'Save review' });
    await inKiswahili();
    expect(screen.getByRole('heading', { name: 'Kagua malipo haya' })).toBeInTheDocument();
    await userEvent.selectOptions(
      screen.getByLabelText('Taarifa ya M-PESA inaonyesha nini'),
      screen.getByRole('option', { name: 'Yamelipwa: taarifa ya M-PESA inaonyesha pesa' }),
    );
    await userEvent.type(
      screen.getByLabelText('Sababu (inahifadhiwa kwenye matukio ya malipo)'),
      'Iko kwenye taarifa: QK1',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Hifadhi ukaguzi' }));
    expect(
      await screen.findByText('Ukaguzi umehifadhiwa. Dokezo liko kwenye matukio ya malipo.'),
    ).toHaveFocus();
    expect(reviews).toEqual([{ note: 'Iko kwenye taarifa: QK1', status: 'success' }]);
  });
});
