// The process's logger: structured JSON lines (pino) with the service name and ISO timestamps.
import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config.js';

export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'invoice-api' }, timestamp: pino.stdTimeFunctions.isoTime });
}
