/**
 * `npm run c2b:register`: registers the C2B confirmation and validation URLs of MPESA_C2B_SHORTCODE
 * with Daraja (docs/daraja-protocol.md §M3.1), as MPESA_C2B_REGISTER=command (production's default)
 * needs once: production takes a registration once, and changing it takes Safaricom's portal
 * (docs/deployment.md). Prints what it did, or why not, and exits 1 when it did not register.
 * Uses the app's own settings (MPESA_*, MPESA_CALLBACK_URL, MPESA_CALLBACK_SECRET or DATA_DIR).
 */
import { loadConfigOrExit } from './config.ts';
import { loadOrCreateCallbackSecret } from './callbacks/callback-secret.ts';
import { callbackUrls, redactCallbackUrl } from './callbacks/callback-paths.ts';
import { createDarajaClient } from './daraja/daraja-client.ts';
import { DarajaError } from './daraja/daraja-error.ts';
import { C2bRegistrationError, registerC2b } from './features/c2b/index.ts';
import { CALLBACK_ROUTES } from './features/index.ts';

if (process.argv.length > 2) {
  console.error(
    'Usage: npm run c2b:register   (takes no arguments: the settings say what to register)',
  );
  process.exit(2);
}

const config = loadConfigOrExit();
const settings = config.c2b;
if (settings === undefined) {
  console.error(
    'No till or paybill is set up: set MPESA_C2B_SHORTCODE (and its MPESA_C2B_* settings) first.',
  );
  process.exit(1);
}

const secret = config.callbackSecret ?? loadOrCreateCallbackSecret(config.dataDir);
const callbackUrlFor = callbackUrls(CALLBACK_ROUTES, config.mpesa.callbackBaseUrl, secret);
try {
  const { description } = await registerC2b({
    // Registering needs no initiator.
    money: createDarajaClient(config.mpesa),
    settings,
    callbackUrlFor,
  });
  console.log(
    `Registered the C2B URLs of ${settings.shortcode} with Daraja (${config.mpesa.env}, ` +
      `${settings.version}, ResponseType ${settings.responseType})` +
      `${description ? `: ${description}` : ''}.\n` +
      `  confirmation: ${redactCallbackUrl(callbackUrlFor('c2b-confirmation'))}\n` +
      `  validation:   ${redactCallbackUrl(callbackUrlFor('c2b-validation'))}`,
  );
} catch (error) {
  if (error instanceof C2bRegistrationError) {
    console.error(error.message);
  } else if (error instanceof DarajaError) {
    console.error(
      `Daraja did not register the C2B URLs of ${settings.shortcode}: ${error.message}` +
        (error.kind === 'rejected'
          ? ''
          : ` (Daraja at ${config.mpesa.baseUrl} could not be reached or did not answer)`),
    );
  } else {
    console.error(error);
  }
  process.exitCode = 1;
}
