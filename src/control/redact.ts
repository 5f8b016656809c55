// Secrets never reach the journal (and so neither its stream nor the inspector): the password of
// POST /fetch_api_key and any API key, in the parameters a client sent or in the answer it got.
// Fixture credentials are public, but a client pointed at the mock may send real ones.
const SECRET_KEYS = new Set(['password', 'old_password', 'new_password', 'api_key', 'token']);
export const REDACTED = '[redacted]';

/** A copy of `value` with every secret field's value replaced (the original is left alone). */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redact) as T;
  if (!value || typeof value !== 'object') return value;
  let out: Record<string, unknown> | null = null;
  for (const [key, v] of Object.entries(value)) {
    const clean = SECRET_KEYS.has(key) && v !== null && v !== undefined ? REDACTED : redact(v);
    if (clean !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = clean;
  }
  return (out ?? value) as T;
}

const SECRET_MARKS = [...SECRET_KEYS].map((k) => Buffer.from(`"${k}"`));

/** The response bytes with secrets replaced; the same buffer when it holds none (the usual case). */
export function redactBytes(bytes: Buffer): Buffer {
  if (!SECRET_MARKS.some((mark) => bytes.includes(mark))) return bytes;
  try { return Buffer.from(JSON.stringify(redact(JSON.parse(bytes.toString())))); } catch { return bytes; }
}

/**
 * The operations whose answers, as described, can hold a secret field (an API key...): only
 * theirs are searched for secrets. Searching every answer's bytes cost a quarter of a large read.
 * Answers the description does not govern (scenarios, a proxied upstream) are searched always.
 */
export function operationsAnsweringSecrets(doc: { components?: Record<string, Record<string, unknown>> }, operations: Array<{ id: string; spec: any }>): Set<string> {
  const out = new Set<string>();
  for (const op of operations) if (holdsSecretKey(doc, op.spec.responses, new Set())) out.add(op.id);
  return out;
}

function holdsSecretKey(doc: any, node: any, seen: Set<unknown>): boolean {
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  if (typeof node.$ref === 'string') {
    const target = node.$ref.replace(/^#\//, '').split('/').reduce((at: any, key: string) => at?.[key], doc);
    return holdsSecretKey(doc, target, seen);
  }
  if (node.properties && Object.keys(node.properties).some((k) => SECRET_KEYS.has(k))) return true;
  return Object.values(node).some((v) => holdsSecretKey(doc, v, seen));
}
