// Stage "decode": the request's parameters decoded and validated against the operation's
// description. A failure is kept, not thrown: scenario rules that need no parameters still fire on
// bad input, and the view's stage answers with the failure.
import { decodeParams } from '../contract/decode.js';
import type { Call } from './call.js';

export function decodeStage(call: Call): void {
  const body = call.req.body && typeof call.req.body === 'object' ? call.req.body : {};
  try {
    const { params, ignored } = decodeParams(call.op, call.pathValues, body, call.query, call.level);
    call.params = call.ex.params = params;
    call.ignored = ignored;
  } catch (err) {
    call.decodeError = err;
  }
}
