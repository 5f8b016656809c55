// A parameter left out gets its default from the description, as a copy of its own: a view may
// keep or change what it is given (POST /register's narrow, default []), and the next request
// still gets the description's default.
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../src/contract/contract.js';
import { decodeParams } from '../../src/contract/decode.js';

const op = compileContract().byId.get('register-queue')!;

describe('a default list or object', () => {
  it('is a new copy on every request, equal to the description default', () => {
    const first = decodeParams(op, {}, {}, {}).params;
    expect(first.narrow).toEqual([]);
    (first.narrow as unknown[]).push(['channel', 'Denmark']);
    const second = decodeParams(op, {}, {}, {}).params;
    expect(second.narrow).toEqual([]);
    expect(second.narrow).not.toBe(first.narrow);
  });
});
