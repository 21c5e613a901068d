import type { ComponentType } from 'react';
import { useLocation } from 'react-router';
import { ownerPaths } from '../../lib/owner-paths';
import { AuditScreen } from './components/audit-screen';
import { KeysScreen } from './components/keys-screen';
import { OperatorsScreen } from './components/operators-screen';
import { SetPasswordScreen } from './components/set-password-screen';
import { WebhooksScreen } from './components/webhooks-screen';
import './admin.css';

const SCREENS: Readonly<Record<string, ComponentType>> = {
  [ownerPaths.operators]: OperatorsScreen,
  [ownerPaths.keys]: KeysScreen,
  [ownerPaths.webhooks]: WebhooksScreen,
  [ownerPaths.audit]: AuditScreen,
  [ownerPaths.setPassword]: SetPasswordScreen,
};

/**
 * The owner's screens and the one-time link's page: a chunk of their own beyond the signing-in
 * one (app/screens.tsx), so that a payer, who downloads that one after the first screen for the
 * header, never downloads these. app/screens.tsx routes only their addresses here.
 */
export function OwnerScreens() {
  const { pathname } = useLocation();
  const Screen = SCREENS[pathname.replace(/(?<=.)\/+$/, '')];
  return Screen ? <Screen /> : null;
}
