/**
 * Telling Daraja where to send the till or paybill payments of MPESA_C2B_SHORTCODE (C2B Register
 * URL, docs/daraja-protocol.md §M3.1): at start-up (MPESA_C2B_REGISTER=start, `startC2bRegistration`,
 * retried while Daraja cannot be reached: in simulator mode the simulator may start a moment after
 * the API), or once with `npm run c2b:register` (c2b-cli.ts), as production needs: it takes a
 * registration once, and changing it takes Safaricom's portal.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CallbackUrlFor } from '../../callbacks/callback-paths.ts';
import { forbiddenWordIn } from '../../daraja/c2b-register.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import type { C2bSettings } from './validation-decision.ts';

export interface C2bRegistrationDeps {
  money: Pick<DarajaMoneyClient, 'registerC2bUrls'>;
  settings: C2bSettings;
  callbackUrlFor: CallbackUrlFor;
}

/** A registration that cannot succeed as the settings are: the sentence says what to change. */
export class C2bRegistrationError extends Error {}

/**
 * Registers the confirmation and validation URLs; throws C2bRegistrationError before sending a
 * URL Daraja would refuse, and DarajaError when Daraja could not be reached or refused.
 */
export async function registerC2b({ money, settings, callbackUrlFor }: C2bRegistrationDeps) {
  const urls = {
    confirmation: callbackUrlFor('c2b-confirmation'),
    validation: callbackUrlFor('c2b-validation'),
  };
  for (const [which, url] of Object.entries(urls)) {
    const word = forbiddenWordIn(url);
    if (word !== undefined) {
      // The URL holds the secret: the sentence names the word, never the URL.
      throw new C2bRegistrationError(
        `The C2B ${which} URL holds "${word.toUpperCase()}", a word Daraja refuses in a registered ` +
          'URL (docs/daraja-protocol.md §M3.1): change MPESA_CALLBACK_URL or MPESA_CALLBACK_SECRET ' +
          'so that neither contains it, then register again.',
      );
    }
  }
  const answer = await money.registerC2bUrls({
    shortcode: settings.shortcode,
    version: settings.version,
    responseType: settings.responseType,
    confirmationUrl: urls.confirmation,
    validationUrl: urls.validation,
  });
  return { shortcode: settings.shortcode, description: answer.description };
}

export interface StartRegistrationOptions extends C2bRegistrationDeps {
  log: FastifyBaseLogger;
  /** Tries again while Daraja cannot be reached, for this long at most. */
  giveUpMs?: number;
  firstDelayMs?: number;
}

/** Whether trying again could help: Daraja was not reached, or did not answer. */
const worthRetrying = (error: unknown) => error instanceof DarajaError && error.kind !== 'rejected';

/**
 * Registers in the background, never throwing: each new failure is logged once, in a sentence,
 * and the API carries on without till payments until it succeeds or the command is run. `stop()`
 * ends the retries (the app closing).
 */
export function startC2bRegistration(options: StartRegistrationOptions) {
  const { log, giveUpMs = 120_000, firstDelayMs = 250 } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const deadline = Date.now() + giveUpMs;
  const logged = new Set<string>();

  const attempt = async (delayMs: number): Promise<boolean> => {
    try {
      const { shortcode } = await registerC2b(options);
      log.info({ shortcode }, `C2B URLs registered with Daraja for ${shortcode}`);
      return true;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (!worthRetrying(error) || Date.now() + delayMs > deadline) {
        log.error(
          `The C2B URLs were not registered (${reason}): till and paybill payments will not reach ` +
            'this server until they are; run npm run c2b:register once the cause is fixed.',
        );
        return false;
      }
      if (!logged.has(reason)) {
        logged.add(reason);
        log.warn(`The C2B URLs could not be registered yet (${reason}); trying again.`);
      }
      if (stopped) return false;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, delayMs);
      });
      return stopped ? false : attempt(Math.min(delayMs * 2, 5000));
    }
  };

  const done = attempt(firstDelayMs);
  return {
    done,
    stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
    },
  };
}
