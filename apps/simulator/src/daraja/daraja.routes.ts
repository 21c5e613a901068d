/**
 * Daraja's public surface: OAuth and each Daraja API's routes (operations/), with Daraja's error
 * envelope for every refusal (docs/daraja-protocol.md §2, §3, §5). Bodies are read as text so
 * malformed JSON gets Daraja's own 400.002.05 rather than a framework error. The fault rules
 * (PUT /_sim/faults) apply here too (gate.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimulatorConfig } from '../config.ts';
import type { FaultPlan } from '../faults.ts';
import type { RunningOperation } from '../operations/operation.ts';
import type { TokenStore } from '../tokens.ts';
import { darajaGate } from './gate.ts';
import { oauthRoutes } from './oauth.routes.ts';

export interface DarajaRoutesOptions {
  config: SimulatorConfig;
  tokens: TokenStore;
  faults: FaultPlan;
  operations: RunningOperation[];
  /** A fault closed the connection of this request with no answer (the log records it). */
  onDropped?: (request: FastifyRequest, reply: FastifyReply) => void;
}

export async function darajaRoutes(
  app: FastifyInstance,
  { config, tokens, faults, operations, onDropped }: DarajaRoutesOptions,
) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const gate = darajaGate({ tokens, faults, onDropped });
  oauthRoutes(app, gate, { config, tokens });
  for (const operation of operations) operation.darajaRoutes(app, gate);
}
