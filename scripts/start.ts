/**
 * `npm start`: builds the web app if needed, then runs the Daraja simulator (when MPESA_ENV is
 * "simulator", the default) and the API with the web app, and prints where they are.
 */
import { buildWebIfNeeded } from './lib.ts';
import { ProcessGroup, printReady, productSettings, startProduct } from './processes.ts';

const settings = productSettings();
const group = new ProcessGroup();

try {
  await buildWebIfNeeded();
  await startProduct(group, settings, { watch: false });
} catch (error) {
  // Unless Ctrl+C or a process that stopped (which said so) already stopped everything.
  if (!group.stopping) console.error(`Could not start: ${(error as Error).message}`);
  group.stop(1);
}

if (!group.stopping) {
  printReady(settings, [['M-PESA app', `http://${settings.reachableHost}:${settings.port}`]]);
}
