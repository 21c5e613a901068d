/**
 * Who may use what. Daraja's endpoints answer whoever reaches SIM_HOST: other machines may use the
 * simulator as their Daraja. The control API (/_sim/) and the virtual phone can end anyone's prompts
 * and read the request log, so they answer this machine only, unless SIM_REMOTE_CONTROL opens them:
 * a second line of defence for when SIM_HOST is a public address.
 */
import net from 'node:net';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { SimulatorConfig } from './config.ts';

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback (::ffff:127.0.0.1); `localhost` for a host setting. */
export function isLoopback(address: string | undefined): boolean {
  if (address === 'localhost') return true;
  const family = net.isIP(address ?? '');
  return family !== 0 && LOOPBACK.check(address ?? '', family === 4 ? 'ipv4' : 'ipv6');
}

export const REMOTE_REFUSED =
  'The control API (/_sim/) and the virtual phone answer only this machine. ' +
  'Set SIM_REMOTE_CONTROL=true to open them to other machines.';

/** An onRequest hook that refuses other machines with 403 unless SIM_REMOTE_CONTROL is on. */
export function thisMachineOnly(config: SimulatorConfig): onRequestAsyncHookHandler {
  return async (request, reply) => {
    if (config.remoteControl) return;
    // The connection's own address: no X-Forwarded-For or other header can claim to be local.
    if (isLoopback(request.socket.remoteAddress)) return;
    return reply.code(403).send({ error: REMOTE_REFUSED });
  };
}

/** What start-up should warn about when SIM_HOST lets other machines in, or undefined. */
export function exposureWarning(config: SimulatorConfig): string | undefined {
  if (isLoopback(config.host)) return undefined;
  const daraja = `SIM_HOST=${config.host}: Daraja's endpoints (OAuth, STK push, STK query) are reachable from other machines`;
  return config.remoteControl
    ? `${daraja}, and so, with SIM_REMOTE_CONTROL=true, are the control API (/_sim/) and the virtual phone: anyone who reaches them can end prompts and read the request log.`
    : `${daraja}; the control API (/_sim/) and the virtual phone answer only this machine.`;
}
