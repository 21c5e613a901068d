import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatDate } from '../../../lib/format';
import { mockApi, renderApp, unauthenticated, type ApiCall } from '../../../test/render-app';

const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });
const operator = (name: string, role: string, extra: Record<string, unknown> = {}) => ({
  name,
  role,
  createdAt: '2026-11-20T08:00:00.000Z',
  passwordSet: true,
  you: false,
  ...extra,
});
const LINK = {
  name: 'Baraka',
  path: '/set-password#tok-123',
  expiresAt: '2026-11-26T08:00:00.000Z',
};

beforeEach(() => localStorage.setItem('mpesa.signedIn', '1'));

function ownerApi(extra: (call: ApiCall) => unknown) {
  return mockApi((call) => {
    const answer = extra(call);
    if (answer) return answer as { status: number; body?: unknown };
    if (call.path === '/api/auth/me') return ok({ name: 'Amina', role: 'owner' });
    if (call.path === '/api/auth/csrf') return ok({ token: 'csrf-1' });
    return undefined;
  });
}

async function chooseKiswahili() {
  const group = within(screen.getByRole('group', { name: 'Language' }));
  await userEvent.click(group.getByRole('button', { name: 'Kiswahili' }));
}

describe('the owner’s screens in Kiswahili', () => {
  it('lists the operators in Kiswahili, adds one, shows the link once, and words a refusal', async () => {
    let exists = false;
    ownerApi((call) => {
      if (call.path === '/api/operators' && call.method === 'POST') {
        if (exists) {
          return {
            status: 409,
            body: { success: false, code: 'OPERATOR_EXISTS', message: 'There is one already.' },
          };
        }
        return ok({ operator: operator('Baraka', 'cashier', { passwordSet: false }), link: LINK });
      }
      if (call.path === '/api/operators') {
        return ok({
          operators: [
            operator('Amina', 'owner', { you: true }),
            operator('Baraka', 'cashier', { passwordSet: false }),
          ],
        });
      }
      return undefined;
    });
    renderApp('/operators');
    await chooseKiswahili();
    expect(await screen.findByRole('heading', { level: 2, name: 'Wahudumu' })).toBeInTheDocument();
    expect(document.title).toBe('Wahudumu · Malipo kwa M-PESA');
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Jina', 'Jukumu', 'Nenosiri', 'Aliongezwa', 'Badilisha']);
    const rows = screen.getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Amina (wewe)');
    expect(rows[1]).toHaveTextContent('Mmiliki');
    expect(rows[2]).toHaveTextContent('Keshia');
    expect(rows[2]).toHaveTextContent('Bado halijawekwa');
    expect(rows[2]).toHaveTextContent(formatDate('2026-11-20T08:00:00.000Z', 'sw'));
    expect(screen.getByLabelText('Jukumu jipya la Baraka')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ondoa Baraka' })).toBeInTheDocument();

    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Ongeza mhudumu' });
    await user.click(within(form).getByRole('button', { name: 'Ongeza' }));
    expect(within(form).getByLabelText('Jina')).toHaveAccessibleDescription('Weka jina lake.');
    await user.type(within(form).getByLabelText('Jina'), 'Baraka');
    await user.click(within(form).getByRole('radio', { name: /Anaweza pia kuomba malipo/ }));
    await user.click(within(form).getByRole('button', { name: 'Ongeza' }));
    expect(
      await screen.findByRole('heading', { name: 'Kiungo cha nenosiri cha Baraka' }),
    ).toHaveFocus();
    expect(
      screen.getByText(new RegExp(`hadi ${formatDate(LINK.expiresAt, 'sw')}\\)`)),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nakili kiungo' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nimemaliza' }));

    exists = true;
    await user.type(within(form).getByLabelText('Jina'), 'Baraka');
    await user.click(within(form).getByRole('button', { name: 'Ongeza' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Tayari kuna mhudumu mwenye jina hili.',
    );
  });

  it('says a cashier’s refusal, and the way to sign in, in Kiswahili', async () => {
    let refusal: { status: number; body: unknown } = {
      status: 403,
      body: { success: false, code: 'ROLE_NOT_ALLOWED', message: 'Not for your role.' },
    };
    ownerApi((call) => (call.path === '/api/keys' ? refusal : undefined));
    const { queryClient } = renderApp('/keys');
    await chooseKiswahili();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Jukumu lako haliruhusu hili: mmiliki pekee ndiye anayesimamia wahudumu, funguo za API, webhooks na rekodi ya shughuli.',
    );
    refusal = unauthenticated();
    await queryClient.resetQueries({ queryKey: ['admin', 'keys'] });
    const notice = await screen.findByText('Ingia ili uone hiki.');
    expect(within(notice).getByRole('link', { name: 'Ingia' })).toHaveAttribute(
      'href',
      '/sign-in?next=%2Fkeys',
    );
  });

  it('lists the keys and the audit trail in Kiswahili', async () => {
    ownerApi((call) => {
      if (call.path === '/api/keys') {
        return ok({
          keys: [
            {
              id: 'k-1',
              name: 'Till 2',
              scope: 'payments:read',
              prefix: 'mpk_ab12',
              createdAt: '2026-11-20T08:00:00.000Z',
              createdBy: 'Amina',
              lastUsedAt: null,
              revokedAt: null,
              revokedReason: null,
              revokedBy: null,
            },
            {
              id: 'k-2',
              name: 'Hooks',
              scope: 'webhooks:manage',
              prefix: 'mpk_cd34',
              createdAt: '2026-11-20T08:00:00.000Z',
              createdBy: 'Zuri',
              lastUsedAt: null,
              revokedAt: '2026-11-23T09:00:00.000Z',
              revokedReason: 'maker_removed',
              revokedBy: 'Amina',
            },
            ...(['owner', 'maker_not_owner'] as const).map((reason, index) => ({
              id: `k-${3 + index}`,
              name: `Key ${reason}`,
              scope: 'payments:read',
              prefix: 'mpk_ef56',
              createdAt: '2026-11-20T08:00:00.000Z',
              createdBy: 'Zuri',
              lastUsedAt: null,
              revokedAt: '2026-11-23T09:00:00.000Z',
              revokedReason: reason,
              revokedBy: reason === 'owner' ? 'Amina' : null,
            })),
          ],
        });
      }
      if (call.path.startsWith('/api/audit')) {
        return ok({
          entries: [
            {
              id: 'a-1',
              at: '2026-11-22T10:00:00.000Z',
              actorKind: 'key',
              actor: 'Till 2',
              action: 'key_created',
              target: 'Accounts',
              subject: { kind: 'key', id: 'Accounts', name: 'Accounts' },
              detail: 'scope payments:request',
              facts: { kind: 'key', scope: 'payments:request', maker: null },
              address: '192.0.2.7',
            },
          ],
          nextCursor: null,
        });
      }
      return undefined;
    });
    renderApp('/keys');
    await chooseKiswahili();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Funguo za API' }),
    ).toBeInTheDocument();
    const key = (await screen.findAllByRole('row'))[1]!;
    expect(key).toHaveTextContent('Kusoma malipo');
    expect(key).toHaveTextContent('na Amina');
    expect(key).toHaveTextContent('Haujawahi kutumika');
    expect(key).toHaveTextContent('Unatumika');
    const [, , hooks, byOwner, notOwner] = await screen.findAllByRole('row');
    expect(hooks).toHaveTextContent('Kusimamia webhooks');
    expect(hooks).toHaveTextContent(
      'Anwani zake hupokea namba kamili za simu za walipaji, kama “Kusoma malipo”.',
    );
    expect(hooks).toHaveTextContent('na Zuri');
    expect(hooks).toHaveTextContent(/Ulibatilishwa .*: aliyeuunda aliondolewa/);
    expect(byOwner).toHaveTextContent(/Ulibatilishwa .* na Amina/);
    expect(notOwner).toHaveTextContent(/Ulibatilishwa .*: aliyeuunda si mmiliki tena/);
    expect(
      screen.getByText(/Ufunguo huacha kufanya kazi mmiliki aliyeuunda anapoondolewa/),
    ).toBeVisible();
    expect(
      screen.getByRole('radio', {
        name: /Kusimamia webhooks.*namba kamili ya simu ya mlipaji, kama “Kusoma malipo”/,
      }),
    ).toBeInTheDocument();
    await userEvent.click(within(key).getByRole('button', { name: 'Batilisha Till 2' }));
    expect(
      screen.getByRole('group', {
        name: 'Ubatilishe ufunguo “Till 2”? Mifumo inayoutumia itakataliwa kuanzia sasa.',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Acha' })).toHaveFocus();

    const owner = screen.getByRole('navigation', { name: 'Mmiliki' });
    await userEvent.click(within(owner).getByRole('link', { name: 'Rekodi ya shughuli' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Rekodi ya shughuli' }),
    ).toBeInTheDocument();
    const entry = (await screen.findAllByRole('row'))[1]!;
    expect(entry).toHaveTextContent('Ufunguo wa API “Till 2”');
    expect(entry).toHaveTextContent('Aliunda ufunguo wa APIunaruhusiwa Kuomba malipo');
    expect(entry).toHaveTextContent(formatDate('2026-11-22T10:00:00.000Z', 'sw'));
  });

  it('sets a password by its one-time link in Kiswahili', async () => {
    mockApi((call) =>
      call.path === '/api/auth/set-password' ? ok({ name: 'Baraka' }) : undefined,
    );
    renderApp('/set-password#tok-123');
    await chooseKiswahili();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Weka nenosiri lako' }),
    ).toBeInTheDocument();
    const password = screen.getByLabelText('Nenosiri jipya');
    expect(password).toHaveAccessibleDescription(/^Chagua nenosiri la herufi 12 hadi 256:/);
    const user = userEvent.setup();
    await user.type(password, 'fupi mno');
    await user.type(screen.getByLabelText('Nenosiri hilohilo tena'), 'fupi mno');
    await user.click(screen.getByRole('button', { name: 'Weka nenosiri' }));
    expect(password).toHaveAccessibleDescription('Chagua nenosiri la herufi 12 hadi 256.');

    await user.clear(password);
    await user.type(password, 'correct horse battery staple');
    await user.clear(screen.getByLabelText('Nenosiri hilohilo tena'));
    await user.type(
      screen.getByLabelText('Nenosiri hilohilo tena'),
      'correct horse battery staple',
    );
    await user.click(screen.getByRole('button', { name: 'Weka nenosiri' }));
    expect(
      await screen.findByText(
        'Nenosiri lako limewekwa, Baraka. Ingia kwa jina lako na nenosiri jipya.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Nenda ukaingie' })).toHaveAttribute(
      'href',
      '/sign-in',
    );
  });

  it('says in Kiswahili that a used link does not work', async () => {
    mockApi((call) =>
      call.path === '/api/auth/set-password'
        ? {
            status: 400,
            body: { success: false, code: 'PASSWORD_LINK_INVALID', message: 'Used.' },
          }
        : undefined,
    );
    renderApp('/set-password#tok-123');
    await chooseKiswahili();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nenosiri jipya'), 'correct horse battery staple');
    await user.type(
      screen.getByLabelText('Nenosiri hilohilo tena'),
      'correct horse battery staple',
    );
    await user.click(screen.getByRole('button', { name: 'Weka nenosiri' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Kiungo hiki hakifanyi kazi: kimeshatumika, kina zaidi ya saa 24, au kiungo kipya zaidi kimetengenezwa. Muulize mmiliki wa duka kiungo kipya.',
    );
  });
});
