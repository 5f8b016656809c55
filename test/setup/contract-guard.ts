// Fails any test during which the server sent a response that breaks the OpenAPI description.
// A test that provokes violations on purpose takes them with takeViolations().
import { afterEach } from 'vitest';
import { contractViolations, type Violation } from '../../src/contract/violations.js';

const seen: Violation[] = [];
contractViolations.on('violation', (v: Violation) => seen.push(v));

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
