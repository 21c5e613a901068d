/**
 * A Daraja client that sends its whole request and then half-closes the connection (a TCP FIN)
 * still gets its answer: Node's HTTP server would otherwise end the socket at the FIN.
 */
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { call, startSimulator, type Harness } from './test/harness.ts';

let sim: Harness;
afterEach(() => sim.close());

it('answers a token request whose client half-closed after sending it', async () => {
  sim = await startSimulator();
  // The answer comes a little after the FIN, as a real one that waits on anything would.
  await call(`${sim.url}/_sim/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: { rules: [{ operation: 'oauth', probability: 1, latencyMs: [100, 100] }] },
  });
  const { port } = new URL(sim.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.end(
    'GET /oauth/v1/generate?grant_type=client_credentials HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      `Authorization: Basic ${Buffer.from('key:secret').toString('base64')}\r\n\r\n`,
  );
  await closed;
  expect(received).toMatch(/^HTTP\/1\.1 200 /);
  expect(received).toContain('"access_token"');
});
