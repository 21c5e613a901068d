/** The API's fixed defaults and Safaricom's published values, which the settings fall back on. */
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
/** Where the database (and `npm run dev`'s simulator state) is kept unless DATA_DIR says. */
export const DEFAULT_DATA_DIR = path.join(REPO_ROOT, 'data');

/** Safaricom's public sandbox Lipa Na M-PESA Online shortcode and passkey (docs/daraja-protocol.md §3.2). */
export const SANDBOX_SHORTCODE = '174379';
export const SANDBOX_PASSKEY = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';

export const DARAJA_BASE_URLS = {
  sandbox: 'https://sandbox.safaricom.co.ke',
  production: 'https://api.safaricom.co.ke',
} as const;

/** The name the simulator's prompts give the merchant unless SIM_BUSINESS_NAME says otherwise. */
export const SIMULATOR_BUSINESS_NAME = 'Sandbox Test Merchant';

/**
 * Safaricom's published callback source addresses (docs/daraja-protocol.md §4.3). The list is
 * widely copied and not complete; production deployments should confirm it and override
 * MPESA_CALLBACK_ALLOWED_IPS.
 */
export const SAFARICOM_CALLBACK_IPS = [
  '196.201.214.200',
  '196.201.214.206',
  '196.201.213.114',
  '196.201.214.207',
  '196.201.214.208',
  '196.201.213.44',
  '196.201.212.127',
  '196.201.212.138',
  '196.201.212.129',
  '196.201.212.136',
  '196.201.212.74',
  '196.201.212.69',
] as const;

/**
 * The callback secret travels as a path segment (/api/mpesa/callback/<secret>), and it is the
 * longest one the API has: the router's parameter limit is its longest allowed length.
 */
export const CALLBACK_SECRET_LENGTH = { min: 16, max: 128 } as const;
export const CALLBACK_SECRET_FORMAT = new RegExp(
  `^[A-Za-z0-9_-]{${CALLBACK_SECRET_LENGTH.min},${CALLBACK_SECRET_LENGTH.max}}$`,
);
