/** The bench's second reference: a bare Express 5 hello-world, the original demo's stack. */
import express from 'express';

const app = express();
app.get('/', (_request, response) => {
  response.json({ hello: 'world' });
});
app.listen(Number(process.argv[2]), '127.0.0.1');
