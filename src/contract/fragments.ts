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
}

const parts = new WeakMap<object, Part>();

/**
 * Registers `value` as a part that will never change, and returns it frozen (its own fields: code
 * that tried to change a kept part would throw rather than change answers already made).
 */
export function fragment<T extends object>(value: T): T {
  if (!parts.has(value)) parts.set(Object.freeze(value), { bytes: null, shaped: null });
  return value;
}

export const isFragment = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && parts.has(value);

/** The part shaped by `node` at `level`, shaped once (the result is a part too). */
export function shapedFragment<N extends object>(
  value: object,
  node: N,
  level: number,
  shape: (value: object, node: N, level: number) => object,
): object {
  const part = parts.get(value)!;
  let byNode = (part.shaped ??= new Map()).get(node);
  if (!byNode) part.shaped.set(node, (byNode = new Map<number, object>()));
  let out = byNode.get(level);
  if (!out) byNode.set(level, (out = fragment(shape(value, node, level))));
  return out;
}

const COMMA = 0x2c;

/**
 * Writes JSON bytes as pieces: the bytes of parts as they were kept, the text between them encoded
 * once, and single bytes (an array's commas); then copies them into one buffer of the exact size
 * (Buffer.concat of the pieces, with a buffer per comma, took three times as long).
 */
class ChunkWriter {
  private readonly pieces: Array<Buffer | number> = [];
  private length = 0;
  private text = '';

  write(text: string): void {
    this.text += text;
  }

  /** The JSON of an array element or property value as JSON.stringify writes it; false when it is left out. */
  value(value: unknown): boolean {
    if (value !== null && typeof value === 'object') {
      const part = parts.get(value);
      if (part) {
        this.flush();
        const bytes = (part.bytes ??= Buffer.from(JSON.stringify(value)));
        this.pieces.push(bytes);
        this.length += bytes.length;
        return true;
      }
      if (Array.isArray(value) && value.length && parts.has(value[0] as object)) {
        this.write('[');
        for (let i = 0; i < value.length; i++) {
          if (i) {
            if (this.text) this.write(',');
            else {
              this.pieces.push(COMMA);
              this.length++;
            }
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
    this.length += bytes.length;
    this.text = '';
  }

  bytes(): Buffer {
    this.flush();
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (const piece of this.pieces) {
      if (typeof piece === 'number') out[at++] = piece;
      else {
        out.set(piece, at);
        at += piece.length;
      }
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

/** `JSON.stringify(body)` when the answer holds no part (its bytes are then made from it), else null. */
export function plainJson(body: Record<string, unknown>): string | null {
  for (const key in body) {
    const v = body[key];
    if (isFragment(v) || (Array.isArray(v) && v.length && isFragment(v[0]))) return null;
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

/** Parts known to satisfy the items schema of an answer's property, per validator and property. */
const checked = new WeakMap<object, Map<string, WeakSet<object>>>();

/** The parts of `body[prop]` that `validate` has already found to satisfy that property's items. */
export function checkedParts(validate: object, prop: string): WeakSet<object> {
  let byProp = checked.get(validate);
  if (!byProp) checked.set(validate, (byProp = new Map()));
  let set = byProp.get(prop);
  if (!set) byProp.set(prop, (set = new WeakSet()));
  return set;
}
