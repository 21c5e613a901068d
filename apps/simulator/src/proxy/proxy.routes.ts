/**
 * GET /_sim/proxy/ca.pem: the proxy's certificate authority (authority.ts), for a client to trust,
 * from the control API (this machine only). The same certificate as the file server.ts names at
 * start.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { SimulatorConfigError } from '../config.ts';
import type { RouteDocs } from '../route-docs.ts';
import { CONTROL_TAGS, errors } from '../routes/docs-kit.ts';
import { CA_CERTIFICATE_FILE, type CertificateAuthority } from './authority.ts';

export const PROXY_OFF_NO_CA =
  'The proxy mode is off (SIM_PROXY=false): there is no certificate authority to trust.';

export const proxyRoutes: FastifyPluginAsync<{
  authority: CertificateAuthority | undefined;
}> = async (app, { authority }) => {
  app.get('/proxy/ca.pem', async (_request, reply) => {
    if (!authority) return reply.code(404).send({ error: PROXY_OFF_NO_CA });
    let pem: string;
    try {
      pem = await authority.certificatePem();
    } catch (error) {
      // A folder that cannot keep it: the sentence says which and what to do.
      if (!(error instanceof SimulatorConfigError)) throw error;
      return reply.code(500).send({ error: `Cannot make the proxy's authority: ${error.message}` });
    }
    return reply
      .type('application/x-pem-file')
      .header('Content-Disposition', `inline; filename="${CA_CERTIFICATE_FILE}"`)
      .send(pem);
  });
};

const EXAMPLE_PEM =
  '-----BEGIN CERTIFICATE-----\nMIIB4DCCAYagAwIBAgIQ…\n-----END CERTIFICATE-----\n';

export function proxyDocs(): Record<string, RouteDocs> {
  return {
    'GET /_sim/proxy/ca.pem': {
      summary: 'The certificate authority a client of the proxy mode trusts',
      description:
        'With `HTTPS_PROXY` pointing at the simulator, a client that calls ' +
        '`https://sandbox.safaricom.co.ke` or `https://api.safaricom.co.ke` reaches the ' +
        'simulator’s Daraja routes, over TLS with a certificate from this authority (which may ' +
        'vouch for those two hosts only). Give it to the client with `NODE_EXTRA_CA_CERTS`, ' +
        '`REQUESTS_CA_BUNDLE` (requests) or `SSL_CERT_FILE` (httpx, urllib). Made at first use and kept (`SIM_PROXY_CA_DIR`), ' +
        'so it stays the same across restarts.',
      tags: CONTROL_TAGS,
      response: {
        200: {
          description: 'The certificate, PEM.',
          content: {
            'application/x-pem-file': { schema: z.string().meta({ examples: [EXAMPLE_PEM] }) },
          },
        },
        ...errors({
          404: { off: { summary: 'With SIM_PROXY=false', error: PROXY_OFF_NO_CA } },
          500: {
            unusable: {
              summary: 'Its folder cannot keep it',
              error:
                "Cannot make the proxy's authority: SIM_PROXY_CA_DIR (/srv/ca) cannot keep the proxy's certificate authority: permission denied. Choose another folder, or turn the proxy off with SIM_PROXY=false.",
            },
          },
        }),
      },
    },
  };
}
