// The text of a form-encoded body as flat fields, as body-parser's `extended: false` reads it
// (`qs` with the options below), and the same faster for what nearly every client sends: each key
// a plain name given once, which qs would split, decode and then merge key by key into the result.
import qs from 'qs';
import { ApiError } from '../errors.js';

export const PARAMETER_LIMIT = 2000;

/** A key that qs keeps as it is: no bracket, dot or escape, and not a name objects already have. */
const PLAIN_KEY = /^[A-Za-z0-9_]+$/;
/** Where qs would end a key at a bracket (`]=`, escaped or not) rather than at the first `=`. */
const BRACKET_EQUALS = /\]=|%5d=/i;

/**
 * A value decoded as qs decodes it: escaped brackets first (qs unescapes them in the whole body
 * before anything else, which matters when a malformed escape leaves the rest as it is), `+` as a
 * space, then the escapes; a malformed escape leaves the text.
 */
function decodeValue(text: string): string {
  if (!text.includes('%')) return text.includes('+') ? text.replace(/\+/g, ' ') : text;
  const spaced = text.replace(/%5b/gi, '[').replace(/%5d/gi, ']').replace(/\+/g, ' ');
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * The fields of a form whose keys are plain names, each given once, exactly as qs reads it; null
 * for any other form (a `]=` anywhere, which qs reads as the end of a key; an empty, escaped,
 * repeated or inherited key), which qs then reads. Brackets in values (JSON, as `to=[2]`) are
 * common and read here.
 */
export function plainFormFields(text: string): Record<string, string> | null {
  if (BRACKET_EQUALS.test(text)) return null;
  const fields: Record<string, string> = {};
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    const part = text.slice(start, end);
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    if (!PLAIN_KEY.test(key) || key in Object.prototype || key === 'prototype' || Object.hasOwn(fields, key))
      return null;
    fields[key] = eq === -1 ? '' : decodeValue(part.slice(eq + 1));
    start = end + 1;
  }
  return fields;
}

/** The form read by qs with the options body-parser gives it (`count`: the number of parameters). */
export function qsFormFields(text: string, count: number): Record<string, unknown> {
  try {
    return qs.parse(text, {
      allowPrototypes: true,
      arrayLimit: count,
      depth: 0,
      charset: 'utf-8',
      parameterLimit: PARAMETER_LIMIT,
      strictDepth: true,
    });
  } catch (err) {
    if (err instanceof RangeError)
      throw new ApiError('BAD_REQUEST', 'Malformed request body: The input exceeded the depth', 400);
    throw err;
  }
}

/** A form body's text as fields: past PARAMETER_LIMIT parameters, the error body-parser gives. */
export function formFields(text: string): Record<string, unknown> {
  if (!text.length) return {};
  let count = 1;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    if (++count > PARAMETER_LIMIT)
      throw new ApiError('BAD_REQUEST', 'Malformed request body: too many parameters', 413);
  }
  return plainFormFields(text) ?? qsFormFields(text, count);
}
