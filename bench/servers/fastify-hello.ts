/** The bench's reference: a bare Fastify 5 JSON hello-world, as fast as Fastify answers anything. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
