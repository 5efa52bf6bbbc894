// An answer written as its media type is carried (the operation table's kind): JSON serialized, text
// with its charset (`text/plain; charset=utf-8`), bytes as they are with their media type, and an
// answer without a body (a 204) with none and no Content-Type. The service writes them so too.
import { HttpResponse } from 'msw';
import type { ChosenAnswer } from './answers.js';

function bytesOf(body: unknown): Uint8Array<ArrayBuffer> {
  if (body instanceof Uint8Array) return new Uint8Array(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
}

export function respond({ status, media, body, headers }: ChosenAnswer): Response {
  if (media === undefined || body === undefined) return new HttpResponse(null, { status, headers });
  switch (media.kind) {
    case 'text':
      return new HttpResponse(typeof body === 'string' ? body : new TextDecoder().decode(bytesOf(body)), {
        status,
        headers: { ...headers, 'Content-Type': `${media.mediaType}; charset=${media.charset}` },
      });
    case 'bytes':
      return new HttpResponse(bytesOf(body), { status, headers: { ...headers, 'Content-Type': media.mediaType } });
    default:
      // JSON (and, should a spec answer one, multipart, which no mock builds: sent as JSON text).
      return new HttpResponse(JSON.stringify(body), { status, headers: { ...headers, 'Content-Type': media.mediaType } });
  }
}
