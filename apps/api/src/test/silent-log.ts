/** A logger that says nothing, for services a test drives directly. */
import type { FastifyBaseLogger } from 'fastify';

export const silentLog = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
