/** The files a user of the package writes: a script using its programmatic API, and TypeScript. */
import path from 'node:path';
import { ROOT } from '../lib.ts';

/** `import { startSimulator } from 'daraja-simulator'` from the folder, as a test of theirs would. */
export const PROGRAMMATIC = `
import { startSimulator } from 'daraja-simulator';
const sim = await startSimulator({ SIM_PIN: '4321' });
try {
  const info = await (await fetch(sim.url + '/_sim/info')).json();
  if (info.pin !== '4321') throw new Error('/_sim/info: ' + JSON.stringify(info));
  const page = await fetch(sim.url + '/');
  if (!page.ok || !(await page.text()).includes('Virtual phone')) throw new Error('no phone page: ' + page.status);
} finally {
  await sim.close();
}
console.log('programmatic API ok');
`;

/** A user's TypeScript: the types must be real (a wrong call is an error), not any. */
export const TYPED = `
import { startSimulator, loadSimulatorConfig, type RunningSimulator } from 'daraja-simulator';
const sim: RunningSimulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '10' });
const url: string = sim.url;
const port: number = loadSimulatorConfig({}).port;
// @ts-expect-error settings are environment-style strings
await startSimulator({ SIM_CALLBACK_DELAY_MS: 10 });
await sim.close();
export { url, port };
`;

export const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
  },
  files: ['typed.mts'],
};
