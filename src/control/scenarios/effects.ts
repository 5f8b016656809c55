// Turns a rule's effect into the status, body and headers to send. Error defaults (status, msg,
// extra fields) come from the description's examples through the catalog.
import type { Effect } from './types.js';
import type { ErrorCatalog } from './error-catalog.js';
import { BASIC_CHALLENGE, badRequest } from '../../errors.js';

export interface EffectResponse {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function effectResponse(
  effect: Effect,
  operationId: string,
  catalog: ErrorCatalog,
  scenario = 'scenario',
): EffectResponse | null {
  if (effect.example !== undefined) {
    // Names in data rules are checked when the scenario is activated; a script's are checked here.
    const described = catalog.example(operationId, effect.example);
    if (!described) throw badRequest(`Scenario '${scenario}': ${unknownExample(catalog, operationId, effect.example)}`);
    const body = structuredClone(described.body);
    return {
      status: described.status,
      body,
      headers: { ...defaultHeaders(described.status, body), ...(effect.headers ?? {}) },
    };
  }
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

/** Why an example name is refused, naming the operation's examples. */
export function unknownExample(catalog: ErrorCatalog, operationId: string, name: string): string {
  const names = catalog.exampleNames(operationId);
  if (names === null) return `no operation '${operationId}' (an example belongs to the rule's operation)`;
  return `operation ${operationId} has no example named '${name}' (its examples: ${names.length ? names.join(', ') : 'none'})`;
}

/** Headers the real server sends with these errors. */
function defaultHeaders(status: number, body: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = status === 401 ? { ...BASIC_CHALLENGE } : {};
  if (body.code === 'RATE_LIMIT_HIT' && typeof body['retry-after'] === 'number') {
    headers['Retry-After'] = String(Math.ceil(body['retry-after'] as number));
  }
  return headers;
}
