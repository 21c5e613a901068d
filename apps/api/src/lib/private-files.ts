/**
 * Folders and files that hold personal data (payers' phone numbers) or secrets are the owner's
 * alone, whatever the umask: a folder we create is 0700, and such a file is 0600, made so when it is
 * created and set so again when it already exists (a database made by an older version, 0644).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Creates `dir` (and any missing parents) owner-only; a folder that exists is left as it is. */
export function makePrivateDir(dir: string): void {
  const first = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  // mkdir's mode passes through the umask; each folder it made is set again, without it.
  for (let made = path.resolve(dir); ; made = path.dirname(made)) {
    fs.chmodSync(made, 0o700);
    if (made === first || made === path.dirname(made)) break;
  }
}

/** Creates `file` empty and owner-only if it does not exist, and makes it owner-only if it does. */
export function makePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  try {
    fs.chmodSync(file, 0o600);
  } catch (error) {
    // Someone else's file that we may write (a shared volume): its owner decides who reads it.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}
