// A small front for the Prism mock, for specs with a byte answer (a PDF, an image: a `bytes` kind of
// the operation table's responseMedia, scripts/lib/media-shapes.mjs). Prism cannot send bytes: it
// has no serializer for such a type, and without an example it sends the text `string` as the "PDF"
// (stoplightio/prism#2054, #1248). The front listens where the mock is expected and passes every
// request to Prism, so that Prism still does all it does (the token, request validation, `Prefer`,
// the Accept header, every other answer); when Prism's answer is a documented byte answer that it
// could only have made up (no example in the spec, or `--dynamic`), the front sends a small valid
// file of that media type in its place (sample-files.mjs: the same bytes the MSW handlers send),
// with its Content-Type and Content-Length. Everything else comes back from Prism untouched.
import { createServer, request as httpRequest } from 'node:http';
import { responseMedia } from './media-shapes.mjs';
import { sampleFile } from './sample-files.mjs';

const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `$ref` inside the document, followed. */
function resolved(spec, node) {
  let current = node;
  for (let depth = 0; depth < 8 && isRecord(current) && typeof current.$ref === 'string'; depth += 1) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((node, key) => (isRecord(node) ? node[key] : undefined), spec);
  }
  return current;
}

/**
 * Per operation of the spec: its method, path template and, per documented status, the byte answers
 * (media type, and whether the spec gives an example Prism would send itself). The kinds are the
 * table's (media-shapes.mjs `responseMedia`), read from the spec Prism serves, whatever its origin:
 * the published spec has no `x-rate-limit` to build a whole table entry from.
 */
export function byteAnswers(spec) {
  const operations = [];
  for (const [path, pathItem] of Object.entries(spec.paths ?? {})) {
    for (const method of httpMethods) {
      const operation = resolved(spec, resolved(spec, pathItem)?.[method]);
      if (!isRecord(operation)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const answers = {};
      for (const [status, media] of Object.entries(responseMedia(spec, operation, where))) {
        const bytes = media.filter((facts) => facts.kind === 'bytes');
        if (bytes.length === 0) continue;
        const content = resolved(spec, operation.responses?.[status])?.content ?? {};
        answers[status] = bytes.map(({ mediaType }) => {
          const mediaObject = resolved(spec, content[mediaType]) ?? {};
          return { mediaType, hasExample: mediaObject.example !== undefined || Object.keys(mediaObject.examples ?? {}).length > 0 };
        });
      }
      operations.push({ operationId: operation.operationId ?? where, method: method.toUpperCase(), segments: path.split('/').filter(Boolean), answers });
    }
  }
  return operations;
}

/** Whether the spec has an answer Prism cannot send: then the mock needs the front. */
export function needsFront(operations) {
  return operations.some((operation) => Object.keys(operation.answers).length > 0);
}

/**
 * The operation a request is for: same method, path template matching, a literal segment preferred
 * over a parameter at the first place they differ (`/reports/export` before `/reports/{report_id}`),
 * as Prism routes.
 */
function matchOperation(operations, method, pathname) {
  const segments = pathname.split('/').filter(Boolean);
  const candidates = operations.filter(
    (operation) =>
      operation.method === method &&
      operation.segments.length === segments.length &&
      operation.segments.every((segment, index) => segment.startsWith('{') || segment === segments[index]),
  );
  const rank = (operation) => operation.segments.map((segment) => (segment.startsWith('{') ? '1' : '0')).join('');
  return candidates.sort((a, b) => rank(a).localeCompare(rank(b)))[0];
}

function mediaTypeOf(contentType) {
  return typeof contentType === 'string' ? contentType.split(';')[0]?.trim().toLowerCase() : undefined;
}

/** The bytes to send instead of Prism's body, or undefined to send Prism's answer as it is. */
function replacement(operation, status, contentType, dynamic) {
  const answer = operation?.answers[String(status)]?.find((candidate) => candidate.mediaType === mediaTypeOf(contentType));
  // An example of the spec's is what Prism sends, verbatim, in static mode.
  if (answer === undefined || (answer.hasExample && !dynamic)) return undefined;
  return { mediaType: answer.mediaType, bytes: sampleFile(answer.mediaType) };
}

/**
 * Starts the front on host:port in front of Prism at `upstream`.
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export function startFront({ operations, upstream, host, port, dynamic }) {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://front.invalid');
    const operation = matchOperation(operations, req.method ?? 'GET', pathname);
    const toPrism = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const status = answer.statusCode ?? 502;
      const sent = replacement(operation, status, answer.headers['content-type'], dynamic);
      if (sent === undefined) {
        res.writeHead(status, answer.headers);
        answer.pipe(res);
        return;
      }
      answer.resume();
      const headers = { ...answer.headers, 'content-type': sent.mediaType, 'content-length': String(sent.bytes.length) };
      delete headers['transfer-encoding'];
      res.writeHead(status, headers);
      res.end(sent.bytes);
    });
    toPrism.on('error', (error) => {
      if (res.headersSent) {
        res.destroy(error);
        return;
      }
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`mock front: Prism did not answer (${error.message})\n`);
    });
    req.pipe(toPrism);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown}:${address.port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** `downloadReport 200 application/pdf, ...`: what the front answers, for the mock's first lines. */
export function describeByteAnswers(operations) {
  return operations
    .flatMap((operation) =>
      Object.entries(operation.answers).flatMap(([status, answers]) => answers.map((answer) => `${operation.operationId} ${status} ${answer.mediaType}`)),
    )
    .join(', ');
}
