// Secrets never reach the journal (and so neither its stream nor the inspector), a recording or
// the request log: the password of POST /fetch_api_key and any API key, in the parameters a
// client sent or in the answer it got, every parameter the description marks `x-secret` (an E2EE
// device's push_key), and the token of a temporary upload URL wherever it appears, a message's
// content included (it opens the file to anyone for 60 s). Fixture credentials are public, but a
// client pointed at the mock may send real ones.
import { resolveRef } from '../contract/ajv.js';
import type { OpenApiDoc } from '../contract/load.js';

const SECRET_KEYS = new Set(['password', 'old_password', 'new_password', 'api_key', 'token']);

/** Each secret name as quoted in JSON text: an answer holding none of them needs no parse. */
const marksOf = (keys: Set<string>) => [...keys].map((k) => Buffer.from(`"${k}"`));
let secretMarks = marksOf(SECRET_KEYS);
/**
 * The same marks as one pattern, for small answers: each Buffer search costs about half a
 * microsecond however short the answer, one pass of a pattern over a 500-byte answer's text less
 * than two searches (a large answer is searched per name: the byte search is faster per byte).
 * Null when a name is not ASCII (the text is read byte by byte, as latin1).
 */
const patternOf = (keys: Set<string>) =>
  [...keys].every((k) => /^[\x20-\x7e]*$/.test(k))
    ? new RegExp(`"(?:${[...keys].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})"`)
    : null;
let secretPattern = patternOf(SECRET_KEYS);
const PATTERN_MAX_BYTES = 2048;

const holdsSecretMark = (bytes: Buffer): boolean =>
  secretPattern !== null && bytes.length <= PATTERN_MAX_BYTES
    ? secretPattern.test(bytes.toString('latin1'))
    : secretMarks.some((mark) => bytes.includes(mark));

/**
 * Adds the names of the request parameters the description marks `x-secret: true` (parameters
 * and form fields alike). The description is one for the whole process, so the names are too.
 * Only where parameters are declared is looked at (walking the whole description, answers and
 * their examples included, took a twentieth of the start-up).
 */
export function learnSecretParameters(doc: unknown): void {
  const d = doc as { paths?: Record<string, any> };
  const add = (param: any) => {
    const p = resolveRef(d as OpenApiDoc, param);
    if (p?.['x-secret'] === true && typeof p.name === 'string' && typeof p.in === 'string') SECRET_KEYS.add(p.name);
  };
  for (const item of Object.values<any>(d?.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    for (const param of item.parameters ?? []) add(param);
    for (const op of Object.values<any>(item)) {
      if (!op || typeof op !== 'object' || Array.isArray(op)) continue;
      for (const param of op.parameters ?? []) add(param);
      const body = resolveRef(d as OpenApiDoc, op.requestBody);
      for (const media of Object.values<any>(body?.content ?? {})) {
        const schema = resolveRef(d as OpenApiDoc, media?.schema);
        for (const [name, prop] of Object.entries<any>(schema?.properties ?? {}))
          if (resolveRef(d as OpenApiDoc, prop)?.['x-secret'] === true) SECRET_KEYS.add(name);
      }
    }
  }
  // The byte search looks for every name, the learned ones too.
  secretMarks = marksOf(SECRET_KEYS);
  secretPattern = patternOf(SECRET_KEYS);
  redactedAnswers = new WeakMap();
}
export const REDACTED = '[redacted]';

/** Whether a parameter or a body field of this name holds a secret. */
export const isSecretKey = (key: string): boolean => SECRET_KEYS.has(key);

/** What every temporary upload URL quotes (the journal looks for it before keeping a text). */
export const TEMPORARY_URL = '/user_uploads/temporary/';
const TEMPORARY_TOKEN = /(\/user_uploads\/temporary\/)[^/"?\s]+/g;

/** A request path, or any text, with the token of each temporary upload URL replaced. */
export function redactPath(path: string): string {
  return path.includes(TEMPORARY_URL) ? path.replace(TEMPORARY_TOKEN, `$1${REDACTED}`) : path;
}

/** A copy of `value` with every secret field's value replaced (the original is left alone). */
export function redact<T>(value: T): T {
  if (typeof value === 'string') return redactPath(value) as T;
  // Nothing is copied or made unless something is replaced: every request's parameters pass here.
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const clean = redact(value[i]);
      if (clean !== value[i]) (copy ??= value.slice())[i] = clean;
    }
    return (copy ?? value) as T;
  }
  if (!value || typeof value !== 'object') return value;
  const src = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const key in src) {
    if (!Object.hasOwn(src, key)) continue;
    const v = src[key];
    const clean =
      SECRET_KEYS.has(key) && v !== null && v !== undefined
        ? REDACTED
        : typeof v === 'string'
          ? redactPath(v)
          : redact(v);
    if (clean !== v) (out ??= { ...src })[key] = clean;
  }
  return (out ?? value) as T;
}

/**
 * The bytes with each temporary upload URL's token replaced; the same buffer when they quote none.
 * `text`, when given, is the same answer as text: searched instead of the bytes (a string search
 * is a fraction of a Buffer's search for a string, which converts the string first).
 */
export function redactTemporaryUrls(bytes: Buffer, text?: string): Buffer {
  const quotes = text !== undefined ? text.includes(TEMPORARY_URL) : bytes.includes(TEMPORARY_URL);
  return quotes ? Buffer.from(redactPath(bytes.toString())) : bytes;
}

/**
 * The redacted copies of answers that held a secret, by the bytes sent: a reused answer (see
 * pipeline/answer-cache.ts) is sent as the same buffer each time, and parsing, redacting and
 * serialising it again for the journal was a fifth of what such a read cost (GET
 * /bots/{id}/api_key). Sent bytes are never changed afterwards (the journal keeps them as they are).
 */
let redactedAnswers = new WeakMap<Buffer, Buffer>();

/** The response bytes with secrets replaced; the same buffer when it holds none (the usual case). */
export function redactBytes(bytes: Buffer): Buffer {
  const known = redactedAnswers.get(bytes);
  if (known) return known;
  const out = redactTemporaryUrls(bytes);
  if (!holdsSecretMark(out)) return out;
  let clean: Buffer;
  try {
    clean = Buffer.from(JSON.stringify(redact(JSON.parse(out.toString()))));
  } catch {
    return out;
  }
  redactedAnswers.set(bytes, clean);
  return clean;
}

/**
 * The operations whose answers, as described, can hold a secret field (an API key, or a property
 * the description marks `x-secret: true`, such as a temporary upload URL): only
 * theirs are searched for secrets. Searching every answer's bytes cost a quarter of a large read.
 * Answers the description does not govern (scenarios, a proxied upstream) are searched always.
 */
export function operationsAnsweringSecrets(
  doc: { components?: Record<string, Record<string, unknown>> },
  operations: Array<{ id: string; spec: any }>,
): { has(operationId: string): boolean } {
  // Each operation is looked at on its first answer (then remembered): walking every operation's
  // answers at start took a tenth of the start-up.
  const specs = new Map(operations.map((op) => [op.id, op.spec]));
  const known = new Map<string, boolean>();
  return {
    has(operationId) {
      let answers = known.get(operationId);
      if (answers === undefined)
        known.set(operationId, (answers = holdsSecretKey(doc, specs.get(operationId)?.responses, new Set())));
      return answers;
    },
  };
}

function holdsSecretKey(doc: any, node: any, seen: Set<unknown>): boolean {
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  if (typeof node.$ref === 'string') {
    const target = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, key: string) => at?.[key], doc);
    return holdsSecretKey(doc, target, seen);
  }
  if (
    node.properties &&
    Object.entries<any>(node.properties).some(([k, p]) => SECRET_KEYS.has(k) || p?.['x-secret'] === true)
  )
    return true;
  return Object.values(node).some((v) => holdsSecretKey(doc, v, seen));
}
