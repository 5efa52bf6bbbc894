// A server for gc-observer.mjs's test: every request keeps an array of about 1 KiB for good and
// makes one of about 8 KiB that it drops at once (arrays: a repeated string may be built as a tree
// of a few small pieces). What it keeps outlives every young collection;
// what it drops dies young. Logs the "listening" line child-process.ts waits for.
import { createServer } from 'node:http';

const kept = [];

function keep(request) {
  kept.push(new Array(128).fill(kept.length));
  return request.url;
}

function discard(request) {
  return new Array(1024).fill(kept.length).length + request.url.length;
}

const server = createServer((request, response) => {
  keep(request);
  discard(request);
  response.writeHead(204).end();
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${address.port}` }));
});
