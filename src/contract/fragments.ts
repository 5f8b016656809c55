// Parts of answers that never change once made (a message or a subscription as one viewer sees
// it, kept by the domain until its row changes), so that the work done on one is done once: its
// JSON text, its shape at a feature level and its check against the description. A read built
// anew then assembles its answer from parts already serialised and checked instead of
// serialising and checking every object again. A part is registered by `fragment(value)`; from
// then on nothing may change it (its owners hand out copies to change, never the part itself).

interface Part {
  /** Its JSON, encoded (made on first use). */
  bytes: Buffer | null;
  /** The part as shaped by a node of shape.ts at a level (the same object when nothing changes). */
  shaped: Map<object, Map<number, object>> | null;
  /** The last of those asked for: most reads ask for the same node and level as the one before. */
  lastNode: object | null;
  lastLevel: number;
  lastShaped: object | null;
  /** The checks (checkedParts) the part has passed. */
  passed: object[] | null;
  /** The part as the value of a map's key (see Keyed), for the last key it was answered under. */
  keyed: Keyed | null;
}

/**
 * A part as an entry of a map of parts by ID (matches_narrow answers one per message, always
 * under that message's ID): the entry's bytes, `"key":` and the part's JSON, made once, and the
 * checks the entry (key and part) passed, so that neither the key nor the part is written or
 * checked again for every answer.
 */
interface Keyed {
  key: string;
  bytes: Buffer | null;
  passed: object[] | null;
}

/**
 * Where a part keeps what is known of it: a property of its own that is not enumerable (so no
 * copy, JSON text, check or comparison sees it), read on every answer faster than a WeakMap
 * lookup would be, several times per part.
 */
const PART = Symbol('part');

const partOf = (value: object): Part | undefined => (value as { [PART]?: Part })[PART];

/**
 * Registers `value` as a part that will never change, and returns it frozen (its own fields: code
 * that tried to change a kept part would throw rather than change answers already made). A value
 * frozen already is copied first, to take the part's record.
 */
export function fragment<T extends object>(value: T): T {
  if (partOf(value)) return value;
  const own = Object.isExtensible(value) ? value : ((Array.isArray(value) ? [...value] : { ...value }) as T);
  const part: Part = {
    bytes: null,
    shaped: null,
    lastNode: null,
    lastLevel: 0,
    lastShaped: null,
    passed: null,
    keyed: null,
  };
  Object.defineProperty(own, PART, { value: part });
  return Object.freeze(own);
}

export const isFragment = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && partOf(value) !== undefined;

/** The part shaped by `node` at `level`, shaped once (the result is a part too). */
export function shapedFragment<N extends object>(
  value: object,
  node: N,
  level: number,
  shape: (value: object, node: N, level: number) => object,
): object {
  const part = partOf(value)!;
  if (part.lastNode === node && part.lastLevel === level) return part.lastShaped!;
  let byNode = (part.shaped ??= new Map()).get(node);
  if (!byNode) part.shaped.set(node, (byNode = new Map<number, object>()));
  let out = byNode.get(level);
  if (!out) byNode.set(level, (out = fragment(shape(value, node, level))));
  part.lastNode = node;
  part.lastLevel = level;
  part.lastShaped = out;
  return out;
}

/**
 * Writes JSON bytes as pieces: the bytes of parts as they were kept, each after the text that came
 * before it (commas, keys, the answer's own fields), then copies them into one buffer. Text is
 * copied character by character while it is ASCII (short texts: no buffer made for each, no call
 * out of JavaScript), the rest encoded in place; the buffer is sized for text that is ASCII, and
 * made again for the worst case (three bytes a UTF-16 unit) when it is not. Buffer.concat of the pieces, with a buffer per text, took
 * three times as long.
 */
class ChunkWriter {
  private readonly pieces: Buffer[] = [];
  /** The text written before each piece. */
  private readonly texts: string[] = [];
  private text = '';
  private pieceBytes = 0;
  private textUnits = 0;

  write(text: string): void {
    this.text += text;
  }

  /** The JSON of an array element or property value as JSON.stringify writes it; false when it is left out. */
  value(value: unknown): boolean {
    if (value !== null && typeof value === 'object') {
      const part = partOf(value);
      if (part) {
        this.piece((part.bytes ??= Buffer.from(JSON.stringify(value))));
        return true;
      }
      if (isMapOfParts(value)) {
        this.write('{');
        let first = true;
        for (const key of Object.keys(value)) {
          const v = (value as Record<string, unknown>)[key];
          if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
          if (!first) this.write(',');
          first = false;
          const entry = v !== null && typeof v === 'object' ? keyedOf(v, key) : undefined;
          if (entry) this.piece((entry.bytes ??= Buffer.from(`${JSON.stringify(key)}:${JSON.stringify(v)}`)));
          else {
            this.write(`${JSON.stringify(key)}:`);
            this.value(v);
          }
        }
        this.write('}');
        return true;
      }
      if (Array.isArray(value) && value.length && isFragment(value[0])) {
        this.write('[');
        for (let i = 0; i < value.length; i++) {
          if (i) this.write(',');
          if (!this.value(value[i])) this.write('null');
        }
        this.write(']');
        return true;
      }
    }
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    this.write(text);
    return true;
  }

  /** Bytes written as they are, after the text written so far. */
  private piece(bytes: Buffer): void {
    this.texts.push(this.text);
    this.textUnits += this.text.length;
    this.text = '';
    this.pieces.push(bytes);
    this.pieceBytes += bytes.length;
  }

  bytes(): Buffer {
    // Sized for text that is all ASCII (the keys, commas and numbers between parts, nearly
    // always): exactly the answer's size, no zero-fill, no view of a part of it made.
    const exact = Buffer.allocUnsafe(this.pieceBytes + this.textUnits + this.text.length);
    if (this.fill(exact, false) === exact.length) return exact;
    // Text beyond ASCII: sized for its worst case (three bytes a UTF-16 unit) and written again.
    const out = Buffer.allocUnsafe(this.pieceBytes + 3 * (this.textUnits + this.text.length));
    const at = this.fill(out, true);
    return at === out.length ? out : out.subarray(0, at);
  }

  /** Writes the answer into `out`, returning where it ends; -1 at text beyond ASCII unless `wide`. */
  private fill(out: Buffer, wide: boolean): number {
    const { pieces, texts } = this;
    let at = 0;
    for (let i = 0; i < pieces.length; i++) {
      at = writeText(out, at, texts[i], wide);
      if (at < 0) return at;
      out.set(pieces[i], at);
      at += pieces[i].length;
    }
    return writeText(out, at, this.text, wide);
  }
}

/**
 * Writes `text` in UTF-8 at `at` (room made by the caller), returning where it ends; -1 at its
 * first character beyond ASCII unless `wide` (room made for three bytes a UTF-16 unit).
 */
function writeText(out: Buffer, at: number, text: string, wide: boolean): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // JSON.stringify's text holds no lone surrogate: from the first non-ASCII unit on, as UTF-8.
    if (c >= 0x80) return wide ? at + out.write(i ? text.slice(i) : text, at) : -1;
    out[at++] = c;
  }
  return at;
}

/** What the part `value` keeps as the entry `key` of a map (a new record when it was last under another key); undefined for a value that is no part. */
function keyedOf(value: object, key: string): Keyed | undefined {
  const part = partOf(value);
  if (!part) return undefined;
  if (part.keyed?.key !== key) part.keyed = { key, bytes: null, passed: null };
  return part.keyed;
}

/**
 * The bytes of `JSON.stringify(body)` for an answer (an object), with the bytes of its parts
 * made once: the answer's own properties and the arrays of parts among them are assembled,
 * everything else is serialised as usual. Without any part it is JSON.stringify itself.
 */
export function serialise(body: Record<string, unknown>): Buffer {
  const text = plainJson(body);
  return text === null ? serialiseWithParts(body) : Buffer.from(text);
}

/** The mark of a map made by partMap. */
const MAP = Symbol('map of parts');

/**
 * Marks `map`, a plain object its maker fills with parts by key (matches_narrow's entries by
 * message ID), as a map of parts: answering it then needs no look for its first value (for-in
 * over a map keyed by IDs lists every key, and the answer is serialised and checked).
 */
export function partMap<T extends Record<string, object>>(map: T): T {
  Object.defineProperty(map, MAP, { value: true });
  return map;
}

/**
 * A map of parts (see partMap), or a plain object whose first value is a part (a map of parts by
 * ID, as matches_narrow answers): written key by key, as JSON.stringify orders them (Object.keys'
 * order), with the parts' bytes.
 */
export function isMapOfParts(value: object): value is Record<string, unknown> {
  if ((value as { [MAP]?: boolean })[MAP] === true) return true;
  if (Array.isArray(value) || partOf(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const key in value) return isFragment((value as Record<string, unknown>)[key]);
  return false;
}

/** `JSON.stringify(body)` when the answer holds no part (its bytes are then made from it), else null. */
export function plainJson(body: Record<string, unknown>): string | null {
  for (const key in body) {
    const v = body[key];
    if (isFragment(v) || (Array.isArray(v) && v.length && isFragment(v[0]))) return null;
    if (v !== null && typeof v === 'object' && isMapOfParts(v)) return null;
  }
  return JSON.stringify(body);
}

/** The bytes of an answer holding parts (see serialise). */
export function serialiseWithParts(body: Record<string, unknown>): Buffer {
  if (typeof body.toJSON === 'function') return Buffer.from(JSON.stringify(body));
  const out = new ChunkWriter();
  let first = true;
  out.write('{');
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    out.write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    out.value(value);
    first = false;
  }
  out.write('}');
  return out.bytes();
}

/** The check of an answer's property by a validator, as a token (per validator and property). */
const checks = new WeakMap<object, Map<string, object>>();

/** The token of `validate`'s check of the items of an answer's property `prop` (see passed and markPassed). */
export function checkOf(validate: object, prop: string): object {
  let byProp = checks.get(validate);
  if (!byProp) checks.set(validate, (byProp = new Map()));
  let check = byProp.get(prop);
  if (!check) byProp.set(prop, (check = {}));
  return check;
}

/** Whether `value` is a part that passed `check` before. */
export function passed(value: unknown, check: object): boolean {
  if (value === null || typeof value !== 'object') return false;
  const list = partOf(value)?.passed;
  return list !== undefined && list !== null && list.includes(check);
}

/** Remembers that the part `value` passed `check`. */
export function markPassed(value: object, check: object): void {
  const part = partOf(value)!;
  if (!part.passed?.includes(check)) (part.passed ??= []).push(check);
}

/** Whether `value` is a part that passed `check` as the entry `key` of a map (key and value checked together). */
export function passedAs(value: unknown, check: object, key: string): boolean {
  if (value === null || typeof value !== 'object') return false;
  const keyed = partOf(value)?.keyed;
  return (
    keyed !== undefined && keyed !== null && keyed.key === key && keyed.passed !== null && keyed.passed.includes(check)
  );
}

/** Remembers that the part `value` passed `check` as the entry `key` of a map. */
export function markPassedAs(value: object, check: object, key: string): void {
  const keyed = keyedOf(value, key)!;
  if (!keyed.passed?.includes(check)) (keyed.passed ??= []).push(check);
}
