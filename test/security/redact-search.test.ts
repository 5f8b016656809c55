// The journal's search of an answer for secret names (redact.ts, redactBytes): a small answer's
// text is searched with one pattern, a large one's bytes name by name. Both find the built-in
// names and those the description marks x-secret, quoted as JSON keys, and nothing else.
import { beforeAll, describe, expect, it } from 'vitest';
import { learnSecretParameters, redactBytes } from '../../src/control/redact.js';
import { compileContract } from '../../src/contract/contract.js';

beforeAll(() => learnSecretParameters(compileContract().doc));

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
const padding = (size: number) => 'z'.repeat(size);

describe.each([
  ['a small answer (one pattern over its text)', 0],
  ['a large answer (each name searched in its bytes)', 4096],
])('%s', (_name, size) => {
  it('redacts a built-in secret name and a learned one (push_key), keeping the rest', () => {
    const out = JSON.parse(
      redactBytes(bytes({ pad: padding(size), api_key: 'K1', nested: [{ push_key: 'P1', name: 'é' }] })).toString(),
    );
    expect(out).toEqual({ pad: padding(size), api_key: '[redacted]', nested: [{ push_key: '[redacted]', name: 'é' }] });
  });

  it('gives back the very buffer when no secret name is quoted as a key', () => {
    for (const value of [
      { pad: padding(size), tokens: 'x' },
      { pad: padding(size), text: 'my api_key here' },
    ]) {
      const sent = bytes(value);
      expect(redactBytes(sent)).toBe(sent);
    }
  });
});
