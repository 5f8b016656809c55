// Refusals are answers, not bugs: an ApiError is built without capturing a stack (the costly part
// of an error answer), and building one leaves the stack depth of every other error as it was.
import { describe, expect, it } from 'vitest';
import { ApiError, badRequest } from '../../src/errors.js';

describe('ApiError', () => {
  it('captures no stack frames', () => {
    const err = badRequest('Invalid stream ID');
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('Invalid stream ID');
    expect(err.stack).not.toMatch(/\n\s+at /);
  });

  it("leaves other errors' stacks as they were", () => {
    const before = Error.stackTraceLimit;
    new ApiError('BAD_REQUEST', 'refused');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('a bug').stack).toMatch(/\n\s+at /);
  });
});
