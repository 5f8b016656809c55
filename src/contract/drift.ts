// Checks a response that another server sent (a proxied upstream, a verified target) against the
// description at the feature level that server reports, and names every difference: a wrong type,
// a required field missing, a field the description does not have, a field sent at a level it
// does not exist at. The mock's own check (Contract.checkResponse) stops at the first problem and
// lets unknown fields pass, because the mock builds its answers from the description; a server
// the mock did not write needs the whole list.
import type { ValidateFunction } from 'ajv';
import type { Contract, ResponseProblem } from './contract.js';
import type { Operation } from './operations.js';
import { SchemaCompiler, resolveRef } from './ajv.js';
import { levelRange } from './levels.js';

/** Enough to see what drifted without flooding a journal entry or a report line. */
const MAX_PROBLEMS = 20;
/** Long lists are alike: their first rows show a drift as well as all of them. */
const MAX_ITEMS = 50;

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

export class DriftChecker {
  private readonly compiler: SchemaCompiler;
  private readonly validators = new Map<unknown, ValidateFunction>();

  constructor(private readonly contract: Contract) {
    this.compiler = new SchemaCompiler(contract.doc, { allErrors: true });
  }

  /** Every difference between `body` and what `op` answers with `status` at `level`. */
  check(op: Operation | null, status: number, body: unknown, level: number): ResponseProblem[] {
    const schema = this.schemaFor(op, status);
    if (!schema) return this.contract.checkResponse(op, status, body);
    let validate = this.validators.get(schema);
    if (!validate) this.validators.set(schema, (validate = this.compiler.compile(schema)));
    const problems: ResponseProblem[] = [];
    if (!validate(body)) {
      for (const e of validate.errors ?? []) {
        // Unknown fields are named below, with the level in mind; union branches repeat their members' errors.
        if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties' || e.keyword === 'if')
          continue;
        const where =
          e.keyword === 'required' ? `${e.instancePath}/${escape((e.params as any).missingProperty)}` : e.instancePath;
        const message = e.keyword === 'required' ? 'required field is missing' : `${e.message ?? e.keyword}`;
        if (!problems.some((p) => p.path === where && p.message === message)) problems.push({ path: where, message });
      }
    }
    this.fields(schema, body, level, '', problems);
    return problems.slice(0, MAX_PROBLEMS);
  }

  private schemaFor(op: Operation | null, status: number): unknown {
    const responses = op?.spec?.responses;
    if (!responses) return null;
    const s = String(status);
    const response = resolveRef(this.contract.doc, responses[s] ?? responses[`${s[0]}XX`] ?? responses.default);
    return response?.content?.['application/json']?.schema ?? null;
  }

  /** The properties a schema names (its allOf parts and union branches included), and whether others may appear. */
  private propertiesOf(schema: any): { props: Map<string, any>; required: string[]; open: boolean; values: any } {
    const doc = this.contract.doc;
    const props = new Map<string, any>();
    const required: string[] = [];
    let open = false;
    let values: any = null;
    let named = false;
    const visit = (part: any, depth: number, inUnion: boolean) => {
      const s = resolveRef(doc, part);
      if (!s || typeof s !== 'object' || depth > 6) return;
      if (s.properties) named = true;
      for (const [k, v] of Object.entries<any>(s.properties ?? {})) if (!props.has(k)) props.set(k, v);
      if (!inUnion) required.push(...(s.required ?? []));
      if (
        s.additionalProperties === true ||
        (s.additionalProperties &&
          typeof s.additionalProperties === 'object' &&
          !Object.keys(s.additionalProperties).length)
      )
        open = true;
      else if (s.additionalProperties && typeof s.additionalProperties === 'object') values = s.additionalProperties;
      for (const p of s.allOf ?? []) visit(p, depth + 1, inUnion);
      for (const p of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(p, depth + 1, true);
    };
    visit(schema, 0, false);
    // An object the description does not spell out (no properties, no value schema) may hold anything.
    if (!named && !values) open = true;
    return { props, required, open, values };
  }

  private fields(schema: any, value: unknown, level: number, path: string, out: ResponseProblem[]): void {
    if (out.length >= MAX_PROBLEMS || value === null || typeof value !== 'object') return;
    const doc = this.contract.doc;
    if (Array.isArray(value)) {
      const s = resolveRef(doc, schema);
      const items =
        s?.items ??
        [...(s?.oneOf ?? []), ...(s?.anyOf ?? [])].map((b: any) => resolveRef(doc, b)).find((b: any) => b?.items)
          ?.items;
      if (items) value.slice(0, MAX_ITEMS).forEach((v, i) => this.fields(items, v, level, `${path}/${i}`, out));
      return;
    }
    const { props, required, open, values } = this.propertiesOf(schema);
    const obj = value as Record<string, unknown>;
    for (const [key, v] of Object.entries(obj)) {
      const at = `${path}/${escape(key)}`;
      const prop = props.get(key);
      if (!prop) {
        if (values) this.fields(values, v, level, at, out);
        else if (!open) out.push({ path: at, message: 'field is not in the description' });
        continue;
      }
      const range = levelRange(prop, resolveRef(doc, prop));
      if (level < range.addedAt)
        out.push({
          path: at,
          message: `field is sent at feature level ${level} but the description has it from ${range.addedAt}`,
        });
      else if (level >= range.removedAt)
        out.push({
          path: at,
          message: `field is sent at feature level ${level} but the description removes it at ${range.removedAt}`,
        });
      else this.fields(prop, v, level, at, out);
    }
    // Required fields that exist only at some levels (the validator cannot require them at all levels).
    for (const key of required) {
      const prop = props.get(key);
      if (!prop || key in obj) continue;
      const range = levelRange(prop, resolveRef(doc, prop));
      // A field always present only from a level on (x-required-from) is gated from there.
      const from: unknown = prop['x-required-from'];
      const addedAt = typeof from === 'number' ? Math.max(from, range.addedAt) : range.addedAt;
      const gated = addedAt > 0 || range.removedAt !== Number.POSITIVE_INFINITY;
      if (gated && addedAt <= level && level < range.removedAt)
        out.push({
          path: `${path}/${escape(key)}`,
          message: `required field is missing (the description has it at feature level ${level})`,
        });
    }
  }
}
