import { paths } from '../../lib/paths';

/**
 * Where signing in leads: the `next` the address gives when it is a path of this app (a single
 * `/`, then no `/` or `\` that a browser would read as another host, and no control characters
 * that it would strip into one); the history otherwise. Anything else would let a link to our
 * sign-in page send the merchant on to a look-alike site.
 */
export function signInTarget(next: string | null): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses.
  if (!next || !/^\/(?![/\\])/.test(next) || /[\u0000-\u001f\u007f\\]/.test(next)) {
    return paths.transactions;
  }
  return next;
}
