// Fails any test during which a server of this process sent a response that breaks the OpenAPI
// description. Each server reports its own violations to its observers (MockServer.onViolation);
// the guard becomes one on every server the test process starts. A test that provokes violations
// on purpose takes them with takeViolations().
//
// Answers given at feature level 372 must also be answers the real 10.2 server could give
// (reference-10-2.ts): a test that provokes a difference on purpose takes it with
// takeReferenceProblems().
//
// It also fails a test in which a view answered an error its operation's description does not
// give as an example (see described-errors.ts): those examples are the scenarios' error catalogue.
import { afterEach } from 'vitest';
import { appendFileSync } from 'node:fs';
import type { Violation } from '../../src/contract/violations.js';
import type { Exchange } from '../../src/http/exchange.js';
import { eventShaperAt } from '../../src/domain/events/event-shape.js';
import { MockServer } from '../../src/server.js';
import { undescribedError } from './described-errors.js';
import { REFERENCE_LEVEL, referenceChecker } from './reference-10-2.js';
import { sharedContract } from '../../src/server.js';

/**
 * The findings, kept on the process's global object: with vitest's `isolate: false` (the suite's
 * setting, see vitest.config.ts), this file runs again before every test file of a worker while
 * the modules it patches stay loaded, so the patch is made once and every run reads the same lists.
 */
interface GuardState {
  seen: Violation[];
  unlike10_2: string[];
  undescribed: string[];
}
const GUARD = Symbol.for('teamchat-mock.contract-guard');
const holder = globalThis as { [GUARD]?: GuardState };
const firstRun = holder[GUARD] === undefined;
const { seen, unlike10_2, undescribed } = (holder[GUARD] ??= { seen: [], unlike10_2: [], undescribed: [] });
/** Discovery: with this variable set, undescribed errors are appended to that file instead of failing tests. */
const logFile = process.env.UNDESCRIBED_ERRORS_LOG;
/** Discovery: with this variable set, differences from 10.2 are appended to that file instead of failing tests. */
const referenceLog = process.env.REFERENCE_PROBLEMS_LOG;

const listen = MockServer.prototype.listen;
if (firstRun)
  MockServer.prototype.listen = function guardedListen(this: MockServer, ...args: Parameters<typeof listen>) {
    this.onViolation((v) => seen.push(v));
    this.onExchange((ex) => {
      const problem = undescribedError(ex);
      if (!problem) return;
      if (logFile) appendFileSync(logFile, `${JSON.stringify(problem)}\n`);
      else undescribed.push(`${problem.operation} ${problem.status} ${problem.code}: ${problem.msg}`);
    });
    this.onExchange((ex) => {
      // The API's own answers at 10.2's level; not the control API's, nor a scenario author's.
      // (Downloads served at the site root are files, not described answers.)
      if (
        ex.level !== REFERENCE_LEVEL ||
        !ex.operation ||
        ex.operation.siteRoot ||
        ex.scenario ||
        sharedContract().byId.get(ex.operation.id) !== ex.operation
      )
        return;
      // Events come at the level their queue was registered at, which a test may have set apart.
      if (ex.operation.id === 'get-events' && !queueAtReferenceLevel(this, ex)) return;
      // An observer's exception would be lost in the record stage: it is a problem like the others.
      try {
        const checker = referenceChecker();
        const found = checker
          ? checker.check({
              method: ex.method,
              path: ex.operation.path,
              status: ex.status,
              body: ex.body,
              params: ex.params,
            })
          : [];
        if (referenceLog) for (const line of found) appendFileSync(referenceLog, `${line}\n`);
        else unlike10_2.push(...found);
      } catch (e) {
        unlike10_2.push(`${ex.method} ${ex.operation.path}: the reference check failed: ${(e as Error).message}`);
      }
    });
    return listen.apply(this, args);
  };

/** Whether the queue a GET /events polled was registered at the reference level. */
function queueAtReferenceLevel(server: MockServer, ex: Exchange): boolean {
  const queueId = ex.params?.queue_id;
  if (!ex.user || typeof queueId !== 'string') return true;
  for (const world of [server.world, ...server.sandboxes.values()]) {
    const queue = world.events.queuesOf(ex.user.user_id).find((q) => q.id === queueId);
    if (queue) return queue.options.shape === eventShaperAt(server.contract.doc, REFERENCE_LEVEL);
  }
  return true;
}

/** Returns and clears the violations seen so far in this test. */
export function takeViolations(): Violation[] {
  return seen.splice(0, seen.length);
}

/** Returns and clears the differences from the 10.2 description seen so far in this test. */
export function takeReferenceProblems(): string[] {
  return unlike10_2.splice(0, unlike10_2.length);
}

afterEach(() => {
  const found = takeViolations();
  if (found.length) {
    const lines = found.map(
      (v) =>
        `${v.operation} ${v.status}: ${v.problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ')}\n  body: ${JSON.stringify(v.body).slice(0, 400)}`,
    );
    throw new Error(`responses broke the OpenAPI description:\n${lines.join('\n')}`);
  }
  const unlike = takeReferenceProblems();
  if (unlike.length) {
    throw new Error(
      `answers at feature level ${REFERENCE_LEVEL} differ from the real 10.2 description:\n${[...new Set(unlike)].join('\n')}`,
    );
  }
  const errors = undescribed.splice(0, undescribed.length);
  if (errors.length) {
    // One line: the runner shows the first line of a hook's error.
    throw new Error(
      `views answered errors their operation's description has no example of (add one to its responses): ${[...new Set(errors)].join(' | ')}`,
    );
  }
});
