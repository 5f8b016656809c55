// Fails any test during which a server of this process sent a response that breaks the OpenAPI
// description. Each server reports its own violations to its observers (MockServer.onViolation);
// the guard becomes one on every server the test process starts. A test that provokes violations
// on purpose takes them with takeViolations().
import { afterEach } from 'vitest';
import type { Violation } from '../../src/contract/violations.js';
import { MockServer } from '../../src/server.js';

const seen: Violation[] = [];
const listen = MockServer.prototype.listen;
MockServer.prototype.listen = function guardedListen(this: MockServer, ...args: Parameters<typeof listen>) {
  this.onViolation((v) => seen.push(v));
  return listen.apply(this, args);
};

/** Returns and clears the violations seen so far in this test. */
export function takeViolations(): Violation[] {
  return seen.splice(0, seen.length);
}

afterEach(() => {
  const found = takeViolations();
  if (found.length) {
    const lines = found.map((v) => `${v.operation} ${v.status}: ${v.problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ')}\n  body: ${JSON.stringify(v.body).slice(0, 400)}`);
    throw new Error(`responses broke the OpenAPI description:\n${lines.join('\n')}`);
  }
});
