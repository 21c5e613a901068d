/** The API as a real process, for tests that kill and restart it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { serverBundle } from '../../../../scripts/server-bundle.ts';

export { freePort } from './ports.ts';

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

export async function startApiProcess(
  env: Record<string, string>,
  port: number,
): Promise<ApiProcess> {
  let output = '';
  // server.ts, bundled (scripts/server-bundle.ts).
  const child = spawn(process.execPath, [await serverBundle('api')], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: '/nonexistent-web-dist',
      MPESA_CALLBACK_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited at start-up:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the API did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, child, exited, output: () => output };
}
