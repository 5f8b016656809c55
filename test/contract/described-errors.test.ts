// The suite's check that a view's error is one of its operation's examples (test/setup): what it
// accepts as the same wording, and what it leaves to others (decoding, scenarios).
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/http/exchange.js';
import { sharedContract } from '../../src/server.js';
import { undescribedError } from '../setup/described-errors.js';

function exchange(
  operation: string,
  status: number,
  body: Record<string, unknown>,
  extra: Partial<Exchange> = {},
): Exchange {
  return {
    operation: sharedContract().byId.get(operation)!,
    status,
    body,
    params: {},
    scenario: null,
    ...extra,
  } as Exchange;
}
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

describe('undescribed errors', () => {
  it("accepts a described wording, with the request's own values in it", () => {
    expect(undescribedError(exchange('mute-user', 400, error('User already muted')))).toBeNull();
    expect(
      undescribedError(exchange('get-user-presence', 400, error('No presence data for cordelia@zulip.com'))),
    ).toBeNull();
    expect(undescribedError(exchange('update-user-group-members', 400, error('Invalid user ID: 12345')))).toBeNull();
    expect(
      undescribedError(
        exchange('add-linkifier', 400, {
          ...error('Bad regular expression: missing ): (x'),
          errors: { __all__: ['x'] },
        }),
      ),
    ).toBeNull();
  });

  it('reports another wording, another code or another status', () => {
    expect(undescribedError(exchange('mute-user', 400, error('User was already muted')))).toEqual({
      operation: 'mute-user',
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'User was already muted',
    });
    expect(undescribedError(exchange('mute-user', 400, error('User already muted', 'USER_MUTED')))).not.toBeNull();
    expect(undescribedError(exchange('mute-user', 404, error('User already muted')))).not.toBeNull();
    // Short messages must match word for word.
    expect(undescribedError(exchange('create-user', 400, error('Name too short!')))).toBeNull();
    expect(undescribedError(exchange('create-user', 400, error('Name too brief!')))).not.toBeNull();
  });

  it('leaves out what the view did not answer: undecoded parameters, scenarios, successes', () => {
    expect(undescribedError(exchange('mute-user', 400, error('anything'), { params: null }))).toBeNull();
    expect(undescribedError(exchange('mute-user', 400, error('anything'), { scenario: 'mine' }))).toBeNull();
    expect(undescribedError(exchange('mute-user', 200, { result: 'success', msg: '' }))).toBeNull();
  });
});
