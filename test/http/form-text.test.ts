// The fast reading of plain forms (src/http/form-text.ts) gives what qs gives with body-parser's
// options, for any body: fast-check draws bodies from the characters that matter to qs (brackets,
// dots, escapes, `+`, `=`, `&`), names objects already have (`__proto__`, `constructor`...) and
// malformed or cut escapes; whatever the fast path takes, it must read as qs reads it, and
// everything else must fall through to qs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formFields, plainFormFields, qsFormFields } from '../../src/http/form-text.js';

const PIECES = [
  '[',
  '{',
  '"',
  ',',
  ']',
  '.',
  '%',
  '+',
  '=',
  '&',
  'a',
  'b',
  '_',
  '0',
  '1',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '%5B',
  '%5d',
  '%3D',
  '%26',
  '%2B',
  '%20',
  '%C3%A9',
  '%E2%82%AC',
  '%F0%9F%98%80',
  '%',
  '%2',
  '%zz',
  '%E2%82',
  '%C3',
  '%FF',
  '%ED%A0%80',
  '+%2',
];
const body = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((pieces) => pieces.join(''));
/** Bodies shaped as clients send them: name=value pairs, the values drawn as above. */
const pairs = fc
  .array(
    fc.tuple(fc.constantFrom('a', 'b', 'a_1', '_', '0', '10', 'to', 'content', '__proto__', 'constructor'), body),
    {
      maxLength: 6,
    },
  )
  .map((entries) => entries.map(([k, v]) => `${k}=${v}`).join('&'));

const count = (text: string) => text.split('&').length;
const fields = (text: string) => (text.length ? qsFormFields(text, count(text)) : {});

/** qs's answer, or its error's message. */
const outcome = (read: () => unknown) => {
  try {
    return { value: read() };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

describe('plain forms read without qs', () => {
  it('read as qs reads them, whatever the body', () => {
    fc.assert(
      fc.property(fc.oneof(body, pairs), (text) => {
        const fast = plainFormFields(text);
        if (fast !== null) expect(fast).toEqual(fields(text));
        expect(outcome(() => formFields(text))).toEqual(outcome(() => fields(text)));
      }),
      { numRuns: 3000 },
    );
  });

  it('take the forms clients send, and leave brackets, repeats and inherited names to qs', () => {
    expect(plainFormFields('type=stream&to=Denmark&topic=a+b&content=%40**Iago**%20hi%zz')).toEqual({
      type: 'stream',
      to: 'Denmark',
      topic: 'a b',
      content: '%40**Iago**%20hi%zz',
    });
    expect(plainFormFields('flag&x=')).toEqual({ flag: '', x: '' });
    expect(plainFormFields('to=%5B2%5D&narrow=[{"operand":"x"}]&q=%5b%zz')).toEqual({
      to: '[2]',
      narrow: '[{"operand":"x"}]',
      q: '[%zz',
    });
    for (const text of [
      'a[b]=1',
      'a=1&a=2',
      '__proto__=1',
      'constructor=1',
      'a%5Bb%5D=1',
      'a=x%5D=y',
      'a=x]=y',
      'a=1&',
      'a.b=1',
    ])
      expect(plainFormFields(text), text).toBeNull();
  });
});
