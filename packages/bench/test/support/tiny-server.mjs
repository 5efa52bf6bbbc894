// The smallest server child-process.ts can start: answers every request with 204 and logs the
// "listening" line it waits for. Node's default SIGTERM handling ends it.
import { createServer } from 'node:http';

const server = createServer((_request, response) => response.writeHead(204).end());
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${address.port}` }));
});
