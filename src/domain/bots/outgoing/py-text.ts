// Python's text forms the real server's outgoing webhook messages are written with: str() of a
// JSON value (an answer's `content: 5` is posted as "5", `null` as "None"), and repr() of a
// response's text (`'...'`) or bytes (`b'...'`) in the owner's notice.

/** Python's choice of quote: single, unless the text has a single quote and no double one. */
const quoteFor = (hasSingle: boolean, hasDouble: boolean) => (hasSingle && !hasDouble ? '"' : "'");

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Characters str.isprintable() refuses (other than the space), escaped by repr(). */
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

export function pyReprStr(text: string): string {
  const quote = quoteFor(text.includes("'"), text.includes('"'));
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch))
      out += code <= 0xff ? `\\x${hex(code, 2)}` : code <= 0xffff ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
    else out += ch;
  }
  return quote + out + quote;
}

export function pyReprBytes(bytes: Buffer): string {
  const quote = quoteFor(bytes.includes(0x27), bytes.includes(0x22));
  let out = '';
  for (const b of bytes) {
    const ch = String.fromCharCode(b);
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (b < 0x20 || b >= 0x7f) out += `\\x${hex(b, 2)}`;
    else out += ch;
  }
  return `b${quote}${out}${quote}`;
}

/** Python's str() of a value decoded from JSON (a float written `1.0` reads back as 1 here: shown "1", not "1.0"). */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return pyReprStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${pyReprStr(k)}: ${pyRepr(v)}`)
    .join(', ')}}`;
}
