/**
 * Requests turned away before anything else looks at them: those still arriving once the app is
 * closing, and HTTP/1.1 requests without a Host header (Node's own check is off, so that they are
 * refused in our shape).
 */
import fp from 'fastify-plugin';
import { missingHostHeader, shuttingDown } from '../errors.ts';

export const requestGuards = fp(
  async (app) => {
    // Once closing, requests still arriving on open connections are turned away (the process is
    // draining; a load balancer retries elsewhere).
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    app.addHook('onRequest', async (request, reply) => {
      if (closing) {
        reply.header('Connection', 'close');
        throw shuttingDown();
      }
      if (request.raw.httpVersion === '1.1' && !request.headers.host) {
        throw missingHostHeader();
      }
    });
  },
  { name: 'request-guards' },
);
