/** The callback secret in the URLs Daraja calls back: drawn, kept in DATA_DIR and read back at start. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CALLBACK_SECRET_FORMAT } from '../config.ts';
import { forbiddenWordIn } from '../daraja/c2b-register.ts';
import { makePrivateDir, makePrivateFile } from '../lib/private-files.ts';

/**
 * A random secret, drawn again while it holds a word Daraja refuses in a C2B URL (docs/daraja-
 * protocol.md §M3.1: `exe`, `cmd`, `sql`… turn up in about one random secret in 400), so that
 * the till's URLs can always be registered.
 */
function newSecret(): string {
  for (;;) {
    const secret = randomBytes(24).toString('base64url');
    if (forbiddenWordIn(secret) === undefined) return secret;
  }
}

/**
 * The callback path token, when MPESA_CALLBACK_SECRET is unset: generated once and kept in the data
 * folder (readable by the owner only), so callback URLs stay valid across restarts.
 */
export function loadOrCreateCallbackSecret(dataDir: string): string {
  const file = path.join(dataDir, 'callback-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (CALLBACK_SECRET_FORMAT.test(existing)) {
      // One an older version or a person left readable by others is made the owner's alone.
      makePrivateFile(file);
      return existing;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makePrivateDir(dataDir);
  const secret = newSecret();
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
