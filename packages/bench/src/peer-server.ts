// What a team would write by hand instead of the service: the search (equality criteria, the page and
// its exact total) and getInvoice, on express 5 with each library wired the way its own README shows,
// and the service's duties per request:
// - helmet's security headers (helmet README: `app.use(helmet())`);
// - a request id, the caller's X-Request-Id or a new UUID, echoed (pino-http README, `genReqId`);
// - one pino-http log line per request (pino-http README; the request serialised as id, method and
//   url, as the service logs it: never the headers, which carry the bearer token);
// - the RFC 9068 access token verified with jose (`jwtVerify`: signature, `typ: at+jwt`, issuer,
//   audience, `exp`) and its scope checked, in express-openapi-validator's security handler for the
//   spec's `oauth2` scheme (its README, "validateSecurity");
// - express-rate-limit per API key (the token's client_id, else sub) with the IETF draft-8 headers,
//   the spec's policies: search 100 per minute and 1,000 per hour, the rest 600 per minute (its
//   README; the limits read from the service's own settings, which the benchmark raises alike);
// - express-openapi-validator, stock, on the published spec, checking requests and answers (its
//   README's example: validateRequests and validateResponses), behind express.json();
// - a prom-client histogram of request durations, with the default metrics (prom-client README),
//   served at /metrics;
// - every error as the API's Error object ({ error, message, details }).
// The SQL is the plain statement a team writes: the page's rows and `count(*)` of the same filter,
// side by side on two pool connections (pg README: a Pool, parameterised queries). It imports
// nothing of this repository: configuration comes from the environment (peer.ts starts it).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Request } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import { importJWK, jwtVerify, type JWK } from 'jose';
import pg from 'pg';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import client from 'prom-client';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
}

const env = {
  databaseUrl: required('DATABASE_URL'),
  specPath: required('SPEC_PATH'),
  keyFile: required('DEV_KEY_FILE'),
  issuer: required('JWT_ISSUER'),
  audience: required('JWT_AUDIENCE'),
  poolSize: Number(process.env['DATABASE_POOL_SIZE'] ?? 10),
  searchPerMinute: Number(process.env['RATE_LIMIT_SEARCH_PER_MINUTE'] ?? 100),
  searchPerHour: Number(process.env['RATE_LIMIT_SEARCH_PER_HOUR'] ?? 1000),
  perMinute: Number(process.env['RATE_LIMIT_PER_MINUTE'] ?? 600),
};

// pg README ("data types"): bigint ids and counts as numbers, numeric amounts as numbers, dates as
// their `YYYY-MM-DD` text; timestamps stay Dates, which res.json writes as ISO 8601 UTC.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number.parseInt(text, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (text) => Number.parseFloat(text));
pg.types.setTypeParser(pg.types.builtins.DATE, (text) => text);
const pool = new pg.Pool({ connectionString: env.databaseUrl, max: env.poolSize, options: '-c TimeZone=UTC' });

// The development key's public half (the service's key file: an ES256 private JWK).
const keyFile = JSON.parse(await readFile(env.keyFile, 'utf8')) as { jwk: JWK };
const { d: _private, ...publicJwk } = keyFile.jwk;
const publicKey = await importJWK(publicJwk, 'ES256');

interface Caller {
  accountId: number;
  apiKey: string;
}

declare global {
  namespace Express {
    interface Request {
      /** The verified token's account and API key, set by the security handler. */
      caller?: Caller;
    }
  }
}

/** An error the error handler answers with its status and the API's Error object. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const realm = 'Bearer realm="invoice-api"';

async function verifyBearer(req: Request, scopes: string[]): Promise<boolean> {
  const [scheme, token] = (req.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || token === undefined || token === '')
    throw new ApiError(401, 'unauthorized', 'A bearer token is required.', { 'WWW-Authenticate': realm });
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, publicKey, {
      algorithms: ['ES256'],
      typ: 'at+jwt',
      issuer: env.issuer,
      audience: env.audience,
      requiredClaims: ['exp'],
      clockTolerance: 30,
    }));
  } catch {
    throw new ApiError(401, 'unauthorized', 'The bearer token is invalid or expired.', { 'WWW-Authenticate': `${realm}, error="invalid_token"` });
  }
  const granted = new Set(String(payload['scope'] ?? '').split(' '));
  if (!scopes.every((scope) => granted.has(scope))) {
    throw new ApiError(403, 'forbidden', `This operation needs the scope ${scopes.join(' ')}.`, {
      'WWW-Authenticate': `${realm}, error="insufficient_scope", scope="${scopes.join(' ')}"`,
    });
  }
  const accountId = payload['account_id'];
  const apiKey = payload['client_id'] ?? payload['sub'];
  if (typeof accountId !== 'number' || typeof apiKey !== 'string') throw new ApiError(401, 'unauthorized', 'The bearer token is malformed.');
  req.caller = { accountId, apiKey };
  return true;
}

const app = express();
app.disable('x-powered-by');

// prom-client README: default metrics and a histogram of request durations.
client.collectDefaultMetrics();
const requestDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'Duration of HTTP requests in seconds',
  labelNames: ['method', 'route', 'status_code'],
});
app.use((req, res, next) => {
  const end = requestDuration.startTimer();
  res.on('finish', () => end({ method: req.method, route: req.route?.path ?? 'unmatched', status_code: res.statusCode }));
  next();
});
app.get('/metrics', async (_req, res) => {
  res.set('Content-Type', client.register.contentType);
  res.end(await client.register.metrics());
});

app.use(
  pinoHttp({
    logger: pino(),
    genReqId(req, res) {
      const existing = req.headers['x-request-id'];
      const id = typeof existing === 'string' && existing !== '' ? existing : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }),
);
app.use(helmet());
app.use(express.json());
app.use(
  OpenApiValidator.middleware({
    apiSpec: env.specPath,
    validateRequests: true,
    validateResponses: true,
    validateSecurity: { handlers: { oauth2: verifyBearer } },
  }),
);

/** express-rate-limit README: one limiter per window, keyed by the API key, IETF draft-8 headers. */
function limiter(windowMs: number, limit: number, identifier: string) {
  return rateLimit({
    windowMs,
    limit,
    identifier,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => req.caller?.apiKey ?? '',
    handler: (_req, _res, next, options) => next(new ApiError(options.statusCode, 'rate_limited', 'Rate limit exceeded for this API key.')),
  });
}
const searchLimits = [limiter(60_000, env.searchPerMinute, 'per-minute'), limiter(3_600_000, env.searchPerHour, 'per-hour')];
const standardLimit = limiter(60_000, env.perMinute, 'per-minute');

const invoiceColumns = 'id, invoice_number, client_id, client_name, amount, currency, status, due_date, created_at, updated_at, description';
/** The columns a search may filter by equality or sort by: fixed names, never input. */
const columns = new Set(['id', 'invoice_number', 'client_id', 'client_name', 'amount', 'currency', 'status', 'due_date', 'created_at', 'updated_at']);

interface SearchBody {
  criteria?: Array<{ field: string; operator: string; value: unknown }>;
  limit?: number;
  offset?: number;
  order_by?: string;
  order_direction?: 'asc' | 'desc';
}

app.post('/api/v1/invoices/search', ...searchLimits, async (req, res) => {
  const body = (req.body ?? {}) as SearchBody;
  const { accountId } = req.caller!;
  const limit = body.limit ?? 50;
  const offset = body.offset ?? 0;
  const orderBy = body.order_by ?? 'created_at';
  const direction = body.order_direction === 'asc' ? 'asc' : 'desc';
  const values: unknown[] = [accountId];
  let where = 'account_id = $1';
  for (const criterion of body.criteria ?? []) {
    // This peer answers equality criteria only: what its benchmark asks.
    if (criterion.operator !== '=' || !columns.has(criterion.field)) throw new ApiError(400, 'invalid_request', 'Only = criteria are supported here.');
    values.push(criterion.value);
    where += ` and ${criterion.field} = $${values.length}`;
  }
  if (!columns.has(orderBy)) throw new ApiError(400, 'invalid_request', 'order_by is not a sortable field.');
  const pageSql = `select ${invoiceColumns} from invoices where ${where} order by ${orderBy} ${direction}, id ${direction} limit $${values.length + 1} offset $${values.length + 2}`;
  const [page, count] = await Promise.all([
    pool.query(pageSql, [...values, limit, offset]),
    pool.query<{ total: number }>(`select count(*) as total from invoices where ${where}`, values),
  ]);
  const total = count.rows[0]?.total ?? 0;
  res.json({ data: page.rows, pagination: { total, limit, offset, has_more: offset + page.rows.length < total } });
});

app.get('/api/v1/invoices/:invoice_id', standardLimit, async (req, res) => {
  const invoiceId = Number(req.params['invoice_id']);
  const { rows } = await pool.query(`select ${invoiceColumns}, version from invoices where account_id = $1 and id = $2`, [req.caller!.accountId, invoiceId]);
  const row = rows[0] as ({ version: number } & Record<string, unknown>) | undefined;
  if (row === undefined) throw new ApiError(404, 'not_found', `Invoice ${invoiceId} not found.`);
  const { version, ...invoice } = row;
  res.set('ETag', `"${invoiceId}-${version}"`).json({ invoice });
});

const codes: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Every failure as the API's Error object (express-openapi-validator README: the error handler). */
const errors: ErrorRequestHandler = (error, req, res, _next) => {
  const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 600 ? error.status : 500;
  if (error instanceof ApiError) res.set(error.headers);
  else if (status === 401) res.set('WWW-Authenticate', realm);
  const first = Array.isArray(error?.errors) ? (error.errors[0] as { path?: string; message?: string } | undefined) : undefined;
  const body: { error: string; message: string; details?: { field: string; issue: string } } = {
    error: error instanceof ApiError ? error.code : (codes[status] ?? 'internal_error'),
    message: status >= 500 ? 'The service failed.' : String(error?.message ?? 'Bad request'),
  };
  if (status === 400 && first?.path !== undefined && first.message !== undefined)
    body.details = { field: first.path.replace(/^\/(body|params|query)\//, ''), issue: first.message };
  if (status >= 500) req.log.error({ err: error }, 'request failed');
  res.status(status).json(body);
};
app.use(errors);

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}` }));
});

process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});
