// The command line's log of requests: one line per answered API request, as text for people or
// as JSON for log collectors (--log-format json). The journal keeps far more; this is what a
// developer watches scroll by.
import type { Exchange } from './http/exchange.js';
import { redactPath } from './control/redact.js';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface RequestLogLine {
  time: string;
  method: string;
  path: string;
  /** operationId, or null for an unknown route. */
  operation: string | null;
  /** 0 when a scenario dropped the connection. */
  status: number;
  duration_ms: number;
  /** Email of the authenticated user, or null. */
  user: string | null;
  sandbox?: string;
}

function requestLogLine(ex: Exchange, now = new Date()): RequestLogLine {
  const line: RequestLogLine = {
    time: now.toISOString(),
    method: ex.method,
    path: redactPath(ex.path),
    operation: ex.operation?.id ?? null,
    status: ex.status,
    duration_ms: Math.round(ex.duration_ms * 1000) / 1000,
    user: ex.user?.email ?? null,
  };
  if (ex.sandbox !== 'default') line.sandbox = ex.sandbox;
  return line;
}

function formatRequest(format: LogFormat, line: RequestLogLine): string {
  if (format === 'json') return JSON.stringify(line);
  const status = line.status === 0 ? 'dropped' : String(line.status);
  const where = line.sandbox ? ` [sandbox ${line.sandbox}]` : '';
  return `${line.time.slice(11, 23)} ${line.method} ${line.path} ${status} ${line.operation ?? '-'} ${line.duration_ms.toFixed(1)}ms ${line.user ?? '-'}${where}`;
}

/** An observer for MockServerOptions.onRequest that writes each request as one line. */
export const requestLogger =
  (format: LogFormat, write: (line: string) => void) =>
  (ex: Exchange): void =>
    write(formatRequest(format, requestLogLine(ex)));
