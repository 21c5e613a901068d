/**
 * `npm run dev`: the simulator and the API, each restarted by Node.js when a file it imports
 * changes, and the web app on Vite's dev server with hot reload, which sends /api to the API
 * (apps/web/vite.config.ts). Ctrl+C stops all three; if one cannot start, it says which and stops
 * the others. The simulator's state survives its restarts (SIM_STATE, below).
 */
import path from 'node:path';
import { createServer } from 'vite';
import { DEFAULT_DATA_DIR } from '../apps/api/src/config.ts';
import { makePrivateDir } from '../apps/api/src/lib/private-files.ts';
import { ROOT } from './lib.ts';
import { ProcessGroup, printReady, productSettings, startProduct } from './processes.ts';

const settings = productSettings();
const group = new ProcessGroup();

/**
 * The simulator keeps its prompts, tokens and callbacks not yet delivered in a file beside the
 * database (SIM_STATE, unless set), so that the restarts a change makes carry on where they were:
 * a prompt open on the virtual phone is still there, and a callback due is still delivered.
 */
if (settings.simulated && settings.env.SIM_STATE === undefined) {
  const dataDir = path.resolve(settings.env.DATA_DIR?.trim() || DEFAULT_DATA_DIR);
  makePrivateDir(dataDir);
  settings.env.SIM_STATE = path.join(dataDir, 'simulator-state.json');
}

/** Vite's dev server, in this process so that its address is known even when it took another port. */
async function startWeb(): Promise<string> {
  try {
    const web = await createServer({
      root: path.join(ROOT, 'apps/web'),
      configFile: path.join(ROOT, 'apps/web/vite.config.ts'),
      clearScreen: false,
      server: { host: settings.host },
    });
    group.onStop(() => web.close());
    await web.listen();
    return (web.resolvedUrls?.local[0] ?? '').replace(/\/$/, '');
  } catch (error) {
    throw new Error(`The web app's dev server (Vite) failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

let webUrl = '';
try {
  await startProduct(group, settings, { watch: true });
  webUrl = await startWeb();
} catch (error) {
  // Unless Ctrl+C or a process that stopped (which said so) already stopped everything.
  if (!group.stopping) console.error(`Could not start: ${(error as Error).message}`);
  group.stop(1);
}

if (!group.stopping) {
  printReady(
    settings,
    [
      ['M-PESA app', webUrl, '(hot reload; /api goes to the API)'],
      ['API', `http://${settings.reachableHost}:${settings.port}`, '(restarts on change)'],
    ],
    '(virtual phone and request log; restarts on change)',
  );
}
