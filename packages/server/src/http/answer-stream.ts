// Sends a streamed answer (a handler's Readable, web ReadableStream or async iterable of chunks) with
// `stream.pipeline`: a chunk is asked for only when the socket has taken the one before (back-pressure,
// so a large export is never held whole), and when the client goes away the pipeline destroys the
// source, which stops producing. Where answers are checked, the length is counted as it passes, and a
// stream that outgrows its schema's `maxLength` is cut (its headers are gone: a 500 can no longer be
// sent) and logged as the mismatch it is.
import type { Response } from 'express';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AnswerMismatch, maxLengthIssue } from './answer-check.js';
import './locals.js';

/** The bound a streamed answer is held to while it is sent. */
export interface StreamLimit {
  operationId: string;
  status: number;
  maxLength: number;
  /** `characters`: a text's code points (UTF-8 bytes that do not continue a character). */
  unit: 'characters' | 'bytes';
}

function utf8CodePoints(chunk: Buffer): number {
  let count = 0;
  for (const byte of chunk) if ((byte & 0xc0) !== 0x80) count += 1;
  return count;
}

/** Passes chunks on, failing with the mismatch once more than `limit.maxLength` has passed. */
function lengthCheck(limit: StreamLimit): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += limit.unit === 'bytes' ? chunk.length : utf8CodePoints(chunk);
      if (seen > limit.maxLength) done(new AnswerMismatch(limit.operationId, limit.status, maxLengthIssue(limit.maxLength, limit.unit)));
      else done(null, chunk);
    },
  });
}

/** Lets a stream go without reading it (a HEAD answer, an answer that failed its check). */
export function discardStream(stream: unknown): void {
  if (typeof stream !== 'object' || stream === null) return;
  if ('destroy' in stream && typeof stream.destroy === 'function') stream.destroy();
  else if ('cancel' in stream && typeof stream.cancel === 'function') (stream.cancel() as Promise<void>).catch(() => undefined);
  else if (Symbol.asyncIterator in stream) {
    // An async generator that has not started ends at once; nothing of it runs.
    const iterator = (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    iterator.return?.()?.catch(() => undefined);
  }
}

/**
 * Writes `source` to the answer, whose status and headers are set. Resolves when it is sent or when the
 * client left first (then `res.locals.clientLeft` is set and the source has been destroyed). A source
 * that fails, or outgrows `limit`, after the headers went out is a failure of the request: recorded
 * for its log line, and the connection is cut so that the client cannot take a partial body for a
 * whole one.
 */
export function sendStream(res: Response, source: AsyncIterable<unknown>, limit: StreamLimit | undefined): Promise<void> {
  // The request's log line waits for this (logging.ts): when the pipeline fails it destroys the answer,
  // and that answer's 'close' may come before this function has recorded why (it does on Node 24).
  const settled = streamTo(res, source, limit);
  res.locals.streamSettled = settled;
  return settled;
}

async function streamTo(res: Response, source: AsyncIterable<unknown>, limit: StreamLimit | undefined): Promise<void> {
  try {
    if (limit === undefined) await pipeline(source, res);
    else await pipeline(source, lengthCheck(limit), res);
  } catch (error) {
    if (isPrematureClose(error) && !res.writableFinished) {
      res.locals.clientLeft = true;
      return;
    }
    res.locals.failure ??= error instanceof Error ? error : new Error(String(error));
    res.destroy();
  }
}

/** The error `pipeline` rejects with when the answer closed before it ended: the client went away. */
function isPrematureClose(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ERR_STREAM_PREMATURE_CLOSE';
}

declare global {
  namespace Express {
    interface Locals {
      /** The client went away while a streamed answer was being sent (answer-stream.ts). */
      clientLeft?: boolean;
      /** Settles (never rejects) once a streamed answer was sent, cut or abandoned (answer-stream.ts). */
      streamSettled?: Promise<void>;
    }
  }
}
