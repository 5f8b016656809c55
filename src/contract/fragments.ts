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
  const part: Part = { bytes: null, shaped: null, lastNode: null, lastLevel: 0, lastShaped: null, passed: null };
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

const COMMA = 0x2c;

/**
 * Writes JSON bytes as pieces: the bytes of parts as they were kept and the text between them
 * encoded once, each piece after an optional byte (an array's comma between two parts); then
 * copies them into one buffer of the exact size. (Buffer.concat of the pieces, with a buffer per
 * comma, took three times as long; two arrays of one type each keep the copy loop monomorphic.)
 */
class ChunkWriter {
  private readonly pieces: Buffer[] = [];
  /** The byte written before each piece (0: none). */
  private readonly before: number[] = [];
  private length = 0;
  private text = '';
  /** The byte the next piece is written after, when no text came between. */
  private pending = 0;

  write(text: string): void {
    if (this.pending) {
      this.text += String.fromCharCode(this.pending);
      this.pending = 0;
    }
    this.text += text;
  }

  /** The JSON of an array element or property value as JSON.stringify writes it; false when it is left out. */
  value(value: unknown): boolean {
    if (value !== null && typeof value === 'object') {
      const part = partOf(value);
      if (part) {
        this.flush();
        const bytes = (part.bytes ??= Buffer.from(JSON.stringify(value)));
        this.pieces.push(bytes);
        this.before.push(this.pending);
        this.length += bytes.length + (this.pending ? 1 : 0);
        this.pending = 0;
        return true;
      }
      if (isMapOfParts(value)) {
        this.write('{');
        let first = true;
        for (const key of Object.keys(value)) {
          const v = (value as Record<string, unknown>)[key];
          if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
          this.write(`${first ? '' : ','}${JSON.stringify(key)}:`);
          this.value(v);
          first = false;
        }
        this.write('}');
        return true;
      }
      if (Array.isArray(value) && value.length && isFragment(value[0])) {
        this.write('[');
        for (let i = 0; i < value.length; i++) {
          if (i) {
            if (this.text) this.write(',');
            else this.pending = COMMA;
          }
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

  private flush(): void {
    if (!this.text) return;
    const bytes = Buffer.from(this.text);
    this.pieces.push(bytes);
    this.before.push(0);
    this.length += bytes.length;
    this.text = '';
  }

  bytes(): Buffer {
    this.flush();
    const out = Buffer.allocUnsafe(this.length);
    const { pieces, before } = this;
    let at = 0;
    for (let i = 0; i < pieces.length; i++) {
      if (before[i]) out[at++] = before[i];
      out.set(pieces[i], at);
      at += pieces[i].length;
    }
    return out;
  }
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

/**
 * A plain object whose first value is a part (a map of parts by ID, as matches_narrow answers):
 * written key by key, as JSON.stringify orders them (Object.keys' order), with the parts' bytes.
 */
function isMapOfParts(value: object): boolean {
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
