// Fails any test during which a server of this process sent a response that breaks the OpenAPI
// description. Each server reports its own violations to its observers (MockServer.onViolation);
// the guard becomes one on every server the test process starts. A test that provokes violations
// on purpose takes them with takeViolations().
//
// It also fails a test in which a view answered an error its operation's description does not
// give as an example (see described-errors.ts): those examples are the scenarios' error catalogue.
import { afterEach } from 'vitest';
import { appendFileSync } from 'node:fs';
import type { Violation } from '../../src/contract/violations.js';
import { MockServer } from '../../src/server.js';
import { undescribedError } from './described-errors.js';

const seen: Violation[] = [];
const undescribed: string[] = [];
/** Discovery: with this variable set, undescribed errors are appended to that file instead of failing tests. */
const logFile = process.env.UNDESCRIBED_ERRORS_LOG;

const listen = MockServer.prototype.listen;
MockServer.prototype.listen = function guardedListen(this: MockServer, ...args: Parameters<typeof listen>) {
  this.onViolation((v) => seen.push(v));
  this.onExchange((ex) => {
    const problem = undescribedError(ex);
    if (!problem) return;
    if (logFile) appendFileSync(logFile, `${JSON.stringify(problem)}\n`);
    else undescribed.push(`${problem.operation} ${problem.status} ${problem.code}: ${problem.msg}`);
  });
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
  const errors = undescribed.splice(0, undescribed.length);
  if (errors.length) {
    // One line: the runner shows the first line of a hook's error.
    throw new Error(`views answered errors their operation's description has no example of (add one to its responses): ${[...new Set(errors)].join(' | ')}`);
  }
});
