/**
 * A password for the command line: typed at the terminal without being shown, or the first line
 * of standard input when that is not a terminal (scripts, tests). Never an argument.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

async function firstLineOfInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return (Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '').toString();
}

function typedUnseen(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  // What is typed is echoed to a stream that drops it.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const terminal = createInterface({ input: process.stdin, output: silent, terminal: true });
  // Ctrl-C in a terminal readline pauses it unless listened for: stop instead.
  terminal.on('SIGINT', () => {
    process.stderr.write('\n');
    process.exit(130);
  });
  return new Promise((resolve) => {
    terminal.question('', (answer) => {
      terminal.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}

/** Thrown when the password typed twice differs. */
export class PasswordMismatch extends Error {
  override name = 'PasswordMismatch';
  constructor() {
    super('The two passwords typed are not the same; nothing was changed.');
  }
}

/** Typed twice at a terminal (a typo unseen would lock the operator out); piped once. */
export async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return firstLineOfInput();
  const first = await typedUnseen(prompt);
  if ((await typedUnseen('Again, to be sure: ')) !== first) throw new PasswordMismatch();
  return first;
}
