/** The simulator's own files (SIM_JOURNAL, SIM_STATE): why one cannot be used, and safe rewrites. */
import fs from 'node:fs';
import path from 'node:path';

/** What went wrong with a file, in words: "its folder /x does not exist", "permission denied". */
export function fileProblem(file: string, error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const folder = path.dirname(path.resolve(file));
  if (code === 'ENOENT' && !fs.existsSync(folder)) return `its folder ${folder} does not exist`;
  if (code === 'ENOENT') return 'there is no such file';
  if (code === 'ENOTDIR') return `part of its path (${folder}) is not a folder`;
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return message;
}

/**
 * Replaces a file's content so that, whenever the process dies, the file holds either the old
 * content or the new, never a mix or nothing: the new content goes to a temporary file in the
 * same folder (a rename is atomic only within one file system), is flushed to the disk, and the
 * temporary file is renamed over the old one, and the folder is flushed too, so that the rename
 * itself is on the disk (a power cut could otherwise undo it). One replacement of a file at a
 * time: they share the temporary file's name.
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    // Owner only: the file may hold secrets (SIM_STATE holds valid access tokens and callback URLs).
    const handle = await fs.promises.open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(path.dirname(file));
}

/**
 * Flushes a folder's entries to the disk. Windows cannot open a folder, and some file systems
 * refuse to flush one: there the rename is as safe as they make it, and nothing is lost by trying.
 */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await fs.promises.open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Refused by this file system (EINVAL, EISDIR): see above.
  }
}
