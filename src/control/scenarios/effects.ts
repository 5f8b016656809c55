// Turns a rule's effect into the status, body and headers to send. Error defaults (status, msg,
// extra fields) come from the description's examples through the catalog.
import type { Effect } from './types.js';
import type { ErrorCatalog } from './error-catalog.js';
import { BASIC_CHALLENGE } from '../../errors.js';

export interface EffectResponse {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function effectResponse(effect: Effect, operationId: string, catalog: ErrorCatalog): EffectResponse | null {
  if (effect.error !== undefined) {
    const given = typeof effect.error === 'string' ? { code: effect.error } : effect.error;
    const known = catalog.lookup(given.code, operationId);
    const { status: givenStatus, ...fields } = given;
    const status = givenStatus ?? known?.status ?? 400;
    const body: Record<string, unknown> = { ...(known?.body ?? { msg: given.code }), ...fields, result: 'error' };
    return { status, body, headers: { ...defaultHeaders(status, body), ...(effect.headers ?? {}) } };
  }
  if (effect.success !== undefined) {
    return { status: 200, body: { result: 'success', msg: '', ...effect.success }, headers: effect.headers };
  }
  if (effect.body !== undefined || effect.status !== undefined) {
    return { status: effect.status ?? 200, body: effect.body ?? {}, headers: effect.headers };
  }
  return null;
}

/** Headers the real server sends with these errors. */
function defaultHeaders(status: number, body: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = status === 401 ? { ...BASIC_CHALLENGE } : {};
  if (body.code === 'RATE_LIMIT_HIT' && typeof body['retry-after'] === 'number') {
    headers['Retry-After'] = String(Math.ceil(body['retry-after'] as number));
  }
  return headers;
}
