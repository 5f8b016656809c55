// Is an error a view answered one of its operation's described examples? The examples are the
// scenarios' error catalogue and what client teams read: an error the mock can give must be
// there, with its status, code and wording. Parts of a message that name the request's own values
// (numbers, quoted names) may differ from the example's.
import type { Exchange } from '../../src/http/exchange.js';
import { ErrorCatalog } from '../../src/control/scenarios/error-catalog.js';
import { sharedContract } from '../../src/server.js';
import { wordingAt } from '../../src/http/envelope.js';

let catalog: ErrorCatalog | null = null;

/**
 * The message with the request's own values blanked: quoted or parenthesised text, emails, the
 * detail of a "label: detail" message (the operand, ID or pattern the request gave), numbers.
 * Quotes go first: a quoted name may hold a colon.
 */
function messageShape(msg: string): string {
  return msg
    .replace(/'.*'|"[^"]*"|‘[^’]*’|“[^”]*”/gs, "'…'")
    .replace(/\([^)]*\)/g, '(…)')
    .replace(/[^\s@'"]+@[^\s@'"]+/g, 'e@x')
    .replace(/: .*$/s, ': …')
    .replace(/-?\d+(\.\d+)?/g, '0');
}

/**
 * Equal, or (for messages of four words or more) equal but for one word of the example, which the
 * answer may spell as one or more words: a name the request gave, unquoted ("Operator greetings
 * not supported.", "Operator + kX not supported."). Shorter messages must be equal: "Name too
 * short!" is not "Name too long!".
 */
function sameShape(example: string, answer: string): boolean {
  if (example === answer) return true;
  const we = example.split(' ');
  const wa = answer.split(' ');
  if (we.length < 4 || wa.length < we.length) return false;
  let head = 0;
  while (head < we.length && we[head] === wa[head]) head++;
  let tail = 0;
  while (tail < we.length - head && we[we.length - 1 - tail] === wa[wa.length - 1 - tail]) tail++;
  return head + tail === we.length - 1;
}

export interface UndescribedError {
  operation: string;
  status: number;
  code: string;
  msg: string;
}

/**
 * The error when a view answered it and the operation's description has no example of it; null
 * otherwise. Only the view's own errors count: authentication, rate limits and parameter decoding
 * answer before the view (no decoded parameters), and a scenario's answer is its author's.
 */
export function undescribedError(ex: Exchange): UndescribedError | null {
  if (ex.status < 400 || ex.status >= 500 || !ex.operation || ex.params === null || ex.scenario) return null;
  const contract = sharedContract();
  if (!contract.byId.has(ex.operation.id)) return null;
  const body = ex.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || typeof body.msg !== 'string') return null;
  catalog ??= new ErrorCatalog(contract);
  const shape = messageShape(body.msg);
  const described = catalog
    .errorExamples(ex.operation.id)
    .some(
      (e) =>
        e.status === ex.status &&
        e.body.code === body.code &&
        typeof e.body.msg === 'string' &&
        sameShape(messageShape(wordingAt(ex.level, e.body.msg)), shape),
    );
  return described ? null : { operation: ex.operation.id, status: ex.status, code: String(body.code), msg: body.msg };
}
