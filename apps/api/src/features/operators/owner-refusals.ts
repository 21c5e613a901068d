/**
 * The refusals of the owner's screens (operators, one-time password links, reviews): one factory
 * each, as errors/refusals.ts has for the rest (kept apart so that neither file grows past its size).
 */
import { AppError } from '../../errors.ts';

/** No operator has this name (compared as features/operators/operator-name.ts compares names): `message` says which. */
export const operatorNotFound = (message: string) =>
  new AppError(404, 'OPERATOR_NOT_FOUND', message);

/** Another operator has this name, or one that looks the same: `message` says which. */
export const operatorExists = (message: string) =>
  new AppError(409, 'OPERATOR_EXISTS', message, { field: 'name' });

/** The shop's last owner cannot be removed or made anything else: no one could manage it then. */
export const LAST_OWNER_MESSAGE =
  'This is the last owner: make another operator an owner first, so that someone can still manage the shop.';
export const lastOwner = () => new AppError(409, 'LAST_OWNER', LAST_OWNER_MESSAGE);

/** One answer for a link that is unknown, used or expired: none of them says which. */
export const passwordLinkInvalid = () =>
  new AppError(
    400,
    'PASSWORD_LINK_INVALID',
    'This link does not work: it may have been used already, replaced by a newer one, or have expired. Ask an owner for a new link.',
  );
