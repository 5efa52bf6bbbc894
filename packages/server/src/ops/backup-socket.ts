// Online backups of the embedded database. A running service holds its PGlite data directory alone
// (single-writer-lock.ts), and a copy of the directory's files taken from outside while it writes
// would mix pages from before and after a commit. So the service itself takes the copy: it listens on
// a Unix socket beside the data directory (`<dataDir>.backup.sock`, next to `<dataDir>.lock`), and
// `pnpm db:backup` asks it there for a snapshot (`Database.dumpDataDir`: CHECKPOINT, then a tarball
// of the directory, while no statement runs). Requests wait for that moment, as they wait for any
// transaction on PGlite's one session.
//
// Why a socket file: whoever may read the data directory may connect (it is created owner-only),
// nobody else can, and no port, token or network exposure is added. Its path is derived from the
// data directory, so the command finds the service the way it finds the lock.
import { chmod, unlink } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';

/** Unix socket paths are limited to 107 bytes on Linux (103 on macOS); keep a margin. */
const maximumSocketPathLength = 100;

/** The socket beside `dataDir` (canonical path), or undefined when that path is too long for a socket. */
export function backupSocketPath(dataDir: string): string | undefined {
  const path = `${dataDir}.backup.sock`;
  return Buffer.byteLength(path) <= maximumSocketPathLength ? path : undefined;
}

export interface BackupSocket {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Serves `POST /backup` on the socket beside `dataDir`. Call only while holding the data directory's
 * lock: any socket file already there was left by a holder that died, and is replaced.
 */
export async function startBackupSocket(dataDir: string, database: Database, logger: Logger): Promise<BackupSocket | undefined> {
  const path = backupSocketPath(dataDir);
  const dump = database.dumpDataDir?.bind(database);
  if (dump === undefined) return undefined;
  if (path === undefined) {
    logger.warn({ dataDir }, 'online backups are off: the backup socket path beside this data directory is too long; stop the service to back it up');
    return undefined;
  }
  await unlinkIfPresent(path);
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only POST /backup is served here.\n');
      return;
    }
    const started = performance.now();
    dump()
      .then(async (blob) => {
        const bytes = new Uint8Array(await blob.arrayBuffer());
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.byteLength }).end(bytes);
        logger.info({ bytes: bytes.byteLength, ms: Math.round(performance.now() - started) }, 'backup snapshot taken');
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'backup snapshot failed');
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`The service could not take a snapshot: ${error instanceof Error ? error.message : String(error)}\n`);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        // close() also removes the socket file.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What asking for a snapshot gave: the tarball, or that no service answers on that socket. */
export type SnapshotAnswer = { kind: 'snapshot'; bytes: Uint8Array } | { kind: 'no-service' };

/** Asks the service listening beside `dataDir` for a snapshot; `onProgress` gets the bytes received so far. */
export function requestSnapshot(socketPath: string, onProgress: (received: number, total: number | undefined) => void): Promise<SnapshotAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'POST', path: '/backup' }, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const total = Number(res.headers['content-length']) || undefined;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.byteLength;
        onProgress(received, total);
      });
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) {
          reject(new Error(body.toString('utf8').trim() || `the service answered ${res.statusCode}`));
        } else if (total !== undefined && body.byteLength !== total) {
          reject(new Error(`the service's snapshot was cut off after ${body.byteLength} of ${total} bytes`));
        } else {
          resolve({ kind: 'snapshot', bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) });
        }
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // No socket file, or one left by a service that died: nobody serves this directory.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve({ kind: 'no-service' });
      else reject(error);
    });
    req.end();
  });
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
