// Typed reads of answers, so that tests say which shape they expect rather than poke at `unknown`.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { ApiError } from '@invoice-api/contract';

/** The Error object of an error answer (the tests then check it field by field). */
export async function errorBody(response: Response): Promise<ApiError> {
  return (await response.json()) as ApiError;
}

/** An answer read through node:http, which adds no header of its own (fetch adds `Cache-Control: no-cache` to a conditional read). */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Sends a bodiless request with exactly `headers`, as a browser or proxy might, and reads the whole answer. */
export function rawRequest(url: string, method: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) }));
      answer.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}
