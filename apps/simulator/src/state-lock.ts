/**
 * Two simulators on one SIM_STATE file would each overwrite what the other saved, and a restart
 * would lose one's prompts: the file is taken with `<file>.lock`, which holds the process id.
 */
import fs from 'node:fs';
import { SimulatorConfigError } from './config.ts';
import { fileProblem } from './files.ts';

export interface StateLock {
  release(): void;
}

/** Takes the file. A lock left by a process that no longer runs (killed with SIGKILL) is taken over. */
export function lockStateFile(file: string): StateLock {
  const lockFile = `${file}.lock`;
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, mine, { flag: 'wx', mode: 0o600 });
      return {
        release: () => {
          const holder = fs.existsSync(lockFile) ? fs.readFileSync(lockFile, 'utf8') : '';
          if (holder === mine) fs.rmSync(lockFile, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new SimulatorConfigError(
          'SIM_STATE',
          `lock ${lockFile} cannot be made: ${fileProblem(lockFile, error)}.`,
        );
      }
    }
    const holder = Number.parseInt(fs.readFileSync(lockFile, 'utf8'), 10);
    if (Number.isInteger(holder) && holder > 0 && running(holder)) {
      throw new SimulatorConfigError(
        'SIM_STATE',
        `file ${file} is in use by another simulator (process ${holder}): give each simulator a file of its own (or, if no simulator uses it, delete ${lockFile}).`,
      );
    }
    fs.rmSync(lockFile, { force: true });
  }
  throw new SimulatorConfigError(
    'SIM_STATE',
    `lock ${lockFile} was taken by another simulator starting at the same time.`,
  );
}

/** Whether a process with this id runs (this one included: a second simulator in it). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
