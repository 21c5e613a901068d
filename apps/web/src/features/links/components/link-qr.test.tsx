import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp, type ApiCall } from '../../../test/render-app';

const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });

function link(extra: Record<string, unknown> = {}) {
  return {
    id: 'l1',
    code: 'k7m2qz9rtx4p',
    amount: 1500,
    minAmount: null,
    purpose: 'Kitenge dress',
    reference: 'ORDER-77',
    oneOnly: true,
    expiresAt: null,
    status: 'active',
    createdBy: 'Carl',
    createdAt: '2026-11-29T09:00:00.000Z',
    paidCount: 0,
    collected: 0,
    ...extra,
  };
}

const MPESA_QR = {
  png: 'iVBORw0KGgoAAAANSUhEUg',
  trxCode: 'PB',
  shortcode: '600100',
  amount: 1500,
  reference: 'ORDER-77',
  merchantName: 'Duka la Mama',
};

function linksApi(
  links: unknown[],
  role = 'cashier',
  extra: (call: ApiCall) => unknown = () => undefined,
) {
  return mockApi((call) => {
    const answer = extra(call);
    if (answer) return answer as { status: number; body?: unknown };
    if (call.path === '/api/config') {
      return {
        status: 200,
        body: { mpesaEnv: 'sandbox', simulatorUrl: null, businessName: 'Duka la Mama' },
      };
    }
    if (call.path === '/api/auth/me') return ok({ name: 'Carl', role });
    if (call.path === '/api/auth/csrf') return ok({ token: 'csrf-1' });
    if (call.path === '/api/links') return ok({ links });
    return undefined;
  });
}

const languages = [
  {
    name: 'English',
    card: 'KES 1,500 for Kitenge dress',
    show: 'Show QR code',
    print: 'Print',
    download: 'Download PNG',
    anyAmount: 'Any amount from KES 200',
    alt: (host: string) => `QR code of ${host}/pay/k7m2qz9rtx4p`,
    ask: 'Get M-PESA’s QR code',
    scan: 'Payers scan this one with the M-PESA app: it pays paybill 600100, reference ORDER-77.',
  },
  {
    name: 'Kiswahili',
    card: 'KES 1,500 kwa Kitenge dress',
    show: 'Onyesha msimbo wa QR',
    print: 'Chapisha',
    download: 'Pakua PNG',
    anyAmount: 'Kiasi chochote kuanzia KES 200',
    alt: (host: string) => `Msimbo wa QR wa ${host}/pay/k7m2qz9rtx4p`,
    ask: 'Pata msimbo wa QR wa M-PESA',
    scan: 'Wanaolipa huuchanganua huu kwa programu ya M-PESA: unalipa paybill 600100, kumbukumbu ORDER-77.',
  },
] as const;

beforeEach(() => localStorage.setItem('mpesa.signedIn', '1'));

describe('a link’s QR codes on the Links screen', () => {
  for (const language of languages) {
    it(`shows ours with the shop and the amount, prints it alone, downloads the PNG, and asks M-PESA for its own (${language.name})`, async () => {
      const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
      const api = linksApi(
        [
          link(),
          link({ id: 'l2', code: 'abcdefghijkm', amount: null, minAmount: 200, purpose: 'Tips' }),
        ],
        'cashier',
        (call) => (call.path === '/api/links/l1/mpesa-qr' ? ok(MPESA_QR) : undefined),
      );
      renderApp('/links');
      if (language.name === 'Kiswahili') {
        const group = within(await screen.findByRole('group', { name: 'Language' }));
        await userEvent.click(group.getByRole('button', { name: 'Kiswahili' }));
      }
      const card = await screen.findByRole('article', { name: language.card });
      await userEvent.click(within(card).getByRole('button', { name: language.show }));

      const qr = within(card).getByRole('img', { name: language.alt(window.location.host) });
      expect(qr).toHaveAttribute('src', '/api/links/l1/qr.svg');
      const figure = qr.closest('figure')!;
      expect(figure).toHaveTextContent('Duka la Mama');
      expect(figure).toHaveTextContent('KES 1,500');
      expect(figure).toHaveTextContent('Kitenge dress');
      expect(figure).toHaveTextContent(`${window.location.host}/pay/k7m2qz9rtx4p`);

      const download = within(card).getByRole('link', { name: language.download });
      expect(download).toHaveAttribute('href', '/api/links/l1/qr.png');
      expect(download).toHaveAttribute('download', 'pay-k7m2qz9rtx4p.png');

      // Print: a copy of the card alone under the body, then the browser's print.
      await userEvent.click(within(card).getByRole('button', { name: language.print }));
      await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
      expect(document.body).toHaveClass('printing-link-qr');
      const sheet = document.body.querySelector(':scope > .link-qr-print');
      expect(sheet).toHaveTextContent('Duka la Mama');
      expect(sheet).toHaveTextContent('KES 1,500');
      window.dispatchEvent(new Event('afterprint'));
      await waitFor(() => expect(document.body).not.toHaveClass('printing-link-qr'));
      expect(document.body.querySelector('.link-qr-print')).toBeNull();

      // M-PESA's own, beside ours.
      await userEvent.click(within(card).getByRole('button', { name: language.ask }));
      const mpesa = await within(card).findByText(language.scan);
      expect(mpesa.closest('figure')?.querySelector('img')).toHaveAttribute(
        'src',
        `data:image/png;base64,${MPESA_QR.png}`,
      );
      const asked = api.calls.find((call) => call.path === '/api/links/l1/mpesa-qr');
      expect(asked?.method).toBe('POST');
      expect(asked?.headers.get('x-csrf-token')).toBe('csrf-1');

      // A link whose payer chooses the amount: "any amount from", and no M-PESA code to ask for.
      const tips = screen.getByRole('article', { name: /Tips/ });
      await userEvent.click(within(tips).getByRole('button', { name: language.show }));
      expect(tips).toHaveTextContent(language.anyAmount);
      expect(within(tips).queryByRole('button', { name: language.ask })).toBeNull();
    });
  }

  it('a viewer sees and prints ours but asks M-PESA for none', async () => {
    linksApi([link()], 'viewer');
    renderApp('/links');
    const card = await screen.findByRole('article', { name: 'KES 1,500 for Kitenge dress' });
    await userEvent.click(within(card).getByRole('button', { name: 'Show QR code' }));
    expect(within(card).getByRole('button', { name: 'Print' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Get M-PESA’s QR code' })).toBeNull();
  });

  it('words M-PESA’s refusal', async () => {
    const message =
      'M-PESA did not make the QR code just now. Please try again in a few minutes; the link’s own QR code works meanwhile.';
    linksApi([link()], 'owner', (call) =>
      call.path === '/api/links/l1/mpesa-qr'
        ? { status: 502, body: { success: false, code: 'MPESA_QR_FAILED', message } }
        : undefined,
    );
    renderApp('/links');
    const card = await screen.findByRole('article', { name: 'KES 1,500 for Kitenge dress' });
    await userEvent.click(within(card).getByRole('button', { name: 'Show QR code' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Get M-PESA’s QR code' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(message);
  });
});
