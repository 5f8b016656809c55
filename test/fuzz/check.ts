// The properties every fuzzed request must keep: an answer in time (no hang), never a 5xx, nothing
// logged as unexpected, a JSON envelope that matches the description (the contract guard's
// violations are taken here so that fast-check sees them and shrinks the request), and a refused
// request (4xx) leaves the world's state exactly as it was.
import { views } from '../../src/domain/views.js';
import { takeViolations } from '../setup/contract-guard.js';
import type { TestServer } from '../helpers/server.js';
import { send, type RawRequest, type RawResponse } from './raw-http.js';

const REQUEST_TIMEOUT_MS = 5000;

export interface FuzzTarget {
  t: TestServer;
  /** Lines the server logged (unexpected errors, contract violations). */
  logs: string[];
}

/** A short, readable form of a request for failure messages. */
export function describeRequest(req: RawRequest): string {
  const body = req.body ? req.body.subarray(0, 300).toString('latin1') : '';
  const headers = Object.entries(req.headers)
    .map(([k, v]) => `${k}: ${String(v).slice(0, 80)}`)
    .join(' | ');
  return `${req.method} ${req.path.slice(0, 300)}${req.path.length > 300 ? `... (${req.path.length} chars)` : ''}\n  ${headers}\n  body(${req.body?.length ?? 0}): ${body}`;
}

/** Sends `req` and checks every property; returns the response for further checks. */
export async function checkRequest(
  target: FuzzTarget,
  req: RawRequest,
  options: { keepChanges?: boolean } = {},
): Promise<RawResponse> {
  const world = target.t.server.world;
  const versionBefore = world.store.version;
  const stateBefore = JSON.stringify(world.store.state);
  target.logs.length = 0;
  const res = await send(target.t.base, req, REQUEST_TIMEOUT_MS);
  const where = `\n${describeRequest(req)}\n  -> ${res.status} ${res.text.slice(0, 300)}`;
  const violations = takeViolations();
  if (violations.length)
    throw new Error(`response breaks the description: ${JSON.stringify(violations.map((v) => v.problems))}${where}`);
  if (res.status === 501 && !hasView(target)) return res;
  if (res.status >= 500) throw new Error(`server error ${res.status}${where}\n  log: ${target.logs.join('\n')}`);
  if (target.logs.length) throw new Error(`the server logged: ${target.logs.join('\n')}${where}`);
  if (req.method !== 'HEAD') {
    const b = res.json;
    const ok =
      b &&
      typeof b === 'object' &&
      !Array.isArray(b) &&
      typeof b.msg === 'string' &&
      (b.result === 'success'
        ? res.status < 300
        : b.result === 'error' &&
          res.status >= 400 &&
          // Every error has a code except 405, which the real server writes with allowed_methods instead.
          (res.status === 405 ? b.code === undefined && Array.isArray(b.allowed_methods) : typeof b.code === 'string'));
    if (!ok) throw new Error(`not a JSON envelope${where}`);
    if (!String(res.headers['content-type']).startsWith('application/json'))
      throw new Error(`content-type ${res.headers['content-type']}${where}`);
  }
  if (res.status >= 400) {
    if (world.store.version !== versionBefore)
      throw new Error(
        `a refused request changed the state (version ${versionBefore} -> ${world.store.version})${where}`,
      );
    if (JSON.stringify(world.store.state) !== stateBefore)
      throw new Error(`a refused request changed the state behind the store's back${where}`);
  } else if (world.store.version !== versionBefore && !options.keepChanges) {
    // Accepted changes are fine; start the next request from the fixture again.
    resetWorld(target);
  }
  return res;
}

/**
 * Operations described but without a view yet (being built by someone else) answer 501 by design;
 * test/contract/views-coverage.test.ts is the test that holds those to account. The journal's
 * newest entry says which operation the request reached (whatever its path prefix).
 */
function hasView(target: FuzzTarget): boolean {
  const id = lastOperation(target);
  return !id || !!(views.authenticated[id as never] ?? views.open[id as never]);
}

/** The operation the last request reached, from the journal (null: none, e.g. a 404). */
export function lastOperation(target: FuzzTarget): string | null {
  return target.t.server.journal.query({ limit: 1 }).entries[0]?.operation ?? null;
}

/** The default world back to the fixture at the frozen time, with whatever is due already done. */
export function resetWorld(target: FuzzTarget): void {
  const world = target.t.server.world;
  world.reset();
  world.tick();
}
