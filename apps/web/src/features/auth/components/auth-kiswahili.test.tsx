import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp, type ApiCall } from '../../../test/render-app';

const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });

beforeEach(() => localStorage.clear());

async function chooseKiswahili() {
  const group = within(screen.getByRole('group', { name: 'Language' }));
  await userEvent.click(group.getByRole('button', { name: 'Kiswahili' }));
}

async function chooseEnglish() {
  const group = within(screen.getByRole('group', { name: 'Lugha' }));
  await userEvent.click(group.getByRole('button', { name: 'English' }));
}

describe('the Sign in screen in Kiswahili', () => {
  it('names its fields and button in Kiswahili, and says why signing in failed in Kiswahili', async () => {
    const api = mockApi((call) =>
      call.path === '/api/auth/sign-in'
        ? {
            status: 401,
            body: {
              success: false,
              code: 'SIGN_IN_FAILED',
              message: 'The name or password is not right.',
            },
          }
        : undefined,
    );
    renderApp('/sign-in');
    await chooseKiswahili();
    expect(await screen.findByRole('heading', { level: 2, name: 'Ingia' })).toBeInTheDocument();
    expect(document.title).toBe('Ingia · Malipo kwa M-PESA');
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Ingia' }));
    expect(screen.getByLabelText('Jina')).toHaveAccessibleDescription('Weka jina lako.');
    expect(api.count('/api/auth/sign-in')).toBe(0);

    await user.type(screen.getByLabelText('Jina'), 'Amina');
    await user.type(screen.getByLabelText('Nenosiri'), 'wrong password!');
    await user.click(screen.getByRole('button', { name: 'Ingia' }));
    const box = await screen.findByRole('alert');
    expect(box).toHaveTextContent('Jina au nenosiri si sahihi.');
    expect(box).toHaveFocus();

    // The refusal already shown follows the language.
    await chooseEnglish();
    await screen.findByRole('heading', { level: 2, name: 'Sign in' });
    expect(screen.getByRole('alert')).toHaveTextContent('The name or password is not right.');
  });

  it('says in Kiswahili that the server could not be reached', async () => {
    mockApi((call) => (call.path === '/api/auth/sign-in' ? 'network-error' : undefined));
    renderApp('/sign-in');
    await chooseKiswahili();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Jina'), 'Amina');
    await user.type(screen.getByLabelText('Nenosiri'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Ingia' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Seva haikuweza kufikiwa. Angalia mtandao wako, kisha ujaribu tena.',
    );
  });
});

describe('the header’s operator bar in Kiswahili', () => {
  function signedIn(role: string, extra: (call: ApiCall) => unknown = () => undefined) {
    localStorage.setItem('mpesa.signedIn', '1');
    return mockApi((call) => {
      const answer = extra(call);
      if (answer) return answer as { status: number; body?: unknown };
      if (call.path === '/api/auth/me') return ok({ name: 'Amina', role });
      if (call.path === '/api/auth/csrf') return ok({ token: 'csrf-1' });
      return undefined;
    });
  }

  it('says who is signed in and their role, and names the owner’s links and the way out', async () => {
    signedIn('owner');
    renderApp('/');
    await chooseKiswahili();
    const header = screen.getByRole('banner');
    expect(await within(header).findByText('Umeingia kama Amina (mmiliki)')).toBeInTheDocument();
    const owner = within(header).getByRole('navigation', { name: 'Mmiliki' });
    expect(within(owner).getByRole('link', { name: 'Wahudumu' })).toHaveAttribute(
      'href',
      '/operators',
    );
    expect(within(owner).getByRole('link', { name: 'Funguo za API' })).toHaveAttribute(
      'href',
      '/keys',
    );
    expect(within(owner).getByRole('link', { name: 'Rekodi ya shughuli' })).toHaveAttribute(
      'href',
      '/audit',
    );
    expect(within(header).getByRole('button', { name: 'Toka' })).toBeEnabled();
  });

  it('names a cashier’s role in Kiswahili, and says in Kiswahili that signing out failed', async () => {
    signedIn('cashier', (call) =>
      call.path === '/api/auth/sign-out' ? 'network-error' : undefined,
    );
    renderApp('/');
    await chooseKiswahili();
    const header = screen.getByRole('banner');
    expect(await within(header).findByText('Umeingia kama Amina (keshia)')).toBeInTheDocument();
    expect(within(header).queryByRole('navigation', { name: 'Mmiliki' })).not.toBeInTheDocument();
    await userEvent.click(within(header).getByRole('button', { name: 'Toka' }));
    expect(await within(header).findByRole('alert')).toHaveTextContent(
      'Kutoka kumeshindwa. Angalia mtandao wako, kisha ujaribu tena.',
    );
  });
});
