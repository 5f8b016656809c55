// The one ajv instance. The whole description is registered under one $id so that the `$ref`s of
// parameter and response schemas resolve; every validator is compiled once, on its first use.
import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { prebuiltValidator, type OpenApiDoc } from './load.js';
import { closedObjectCheck } from './closed-objects.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;
const standaloneCode = (standaloneModule as any).default ?? standaloneModule;

const DOC_ID = 'teamchat-openapi';

export class SchemaCompiler {
  private instance: InstanceType<typeof Ajv2020> | null = null;
  private readonly lazies: Array<{ schema: unknown; compile: () => ValidateFunction; name?: string }> = [];

  /** `allErrors`: report every problem, not the first (a drift report names each difference). */
  constructor(
    private readonly doc: OpenApiDoc,
    private readonly options: { allErrors?: boolean } = {},
  ) {}

  /**
   * The ajv instance, made with the first validator compiled: making it (meta-schemas, the
   * description registered) cost a fifth of the start-up, and the control API's compiler is
   * often never used.
   */
  private get ajv(): InstanceType<typeof Ajv2020> {
    return (this.instance ??= newAjv(this.doc, this.options.allErrors ?? false, false));
  }

  compile(schema: unknown): ValidateFunction {
    return this.ajv.compile(rebase(schema) as object);
  }

  /**
   * A validator compiled on its first call (then kept). Compiling all of the description's
   * hundreds of validators took most of the start-up time, and a run uses only some of them.
   */
  lazy(schema: unknown, name?: string): ValidateFunction {
    let compiled: ValidateFunction | null = null;
    const compile = () => (compiled ??= this.prebuilt(name) ?? this.compile(schema));
    // A closed object's answers are first looked at key by key (closed-objects.ts); only those
    // that look wrong (and every answer when all errors are wanted) go through the whole validator.
    // false: none (any other schema, all errors wanted, or a validator the build compiled, which
    // needs no compiling at start); undefined: not looked for yet.
    let quick: ((data: unknown) => boolean) | false | undefined =
      this.options.allErrors || (name !== undefined && prebuiltValidator(this.doc, name) !== undefined)
        ? false
        : undefined;
    const validate = ((data: unknown) => {
      if (quick === undefined) quick = this.closedCheck(schema) ?? false;
      if (quick && quick(data)) {
        validate.errors = null;
        return true;
      }
      const v = compile();
      const ok = v(data) as boolean;
      validate.errors = v.errors;
      return ok;
    }) as ValidateFunction;
    validate.errors = null;
    this.lazies.push({ schema, compile, name });
    return validate;
  }

  /** The key-by-key look at a closed object's answers (closed-objects.ts), or null for any other schema. */
  closedCheck(schema: unknown): ((data: unknown) => boolean) | null {
    return closedObjectCheck(
      this.doc,
      resolveRef(this.doc, schema),
      (sub) => this.compile(sub),
      resolveRef,
      requiredOf,
    );
  }

  /**
   * The validator the build compiled for `name` (ajv's standalone code, kept in the description's
   * bundle: see prebuilt.ts), or null. Made with this compiler's options only.
   */
  private prebuilt(name: string | undefined): ValidateFunction | null {
    if (name === undefined || this.options.allErrors) return null;
    const code = prebuiltValidator(this.doc, name);
    if (code === undefined) return null;
    const module = { exports: {} as { default?: ValidateFunction } };
    // The build keeps only code that requires nothing (prebuilt.ts).
    new Function('module', 'exports', code)(module, module.exports);
    return module.exports.default ?? null;
  }

  /**
   * ajv's standalone code of the validator of `name` (the build's, see prebuilt.ts), compiled as
   * `compile` compiles it; null when the code would need a module at run time.
   */
  standaloneCode(name: string): string | null {
    const entry = this.lazies.find((l) => l.name === name);
    if (!entry) throw new Error(`no validator named ${name}`);
    const ajv = newAjv(this.doc, this.options.allErrors ?? false, true);
    const code = standaloneCode(ajv, ajv.compile(rebase(entry.schema) as object));
    return /\brequire\(/.test(code) ? null : code;
  }

  /** Checks every lazy validator's schema against the meta-schema and compiles it now (a test checks the whole description). */
  compileAll(): void {
    for (const { schema, compile } of this.lazies) {
      if (!this.ajv.validateSchema(rebase(schema) as object))
        throw new Error(`invalid schema: ${this.ajv.errorsText()}`);
      compile();
    }
  }
}

/**
 * An ajv instance with the description registered. `source`: keeping each validator's code, for
 * standaloneCode (the build only).
 */
function newAjv(doc: OpenApiDoc, allErrors: boolean, source: boolean): InstanceType<typeof Ajv2020> {
  // strict off: OpenAPI adds keywords (example, deprecated, x-*) that JSON Schema does not know.
  // validateSchema off: checking each schema against the meta-schema at every compile took a
  // tenth of the start-up; compileAll (the test of the whole description) checks them instead.
  const ajv = new Ajv2020({
    strict: false,
    allErrors,
    validateFormats: true,
    validateSchema: false,
    ...(source ? { code: { source: true } } : {}),
  });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: rebase(doc.components) });
  return ajv;
}

const gated = (prop: any) =>
  prop &&
  typeof prop === 'object' &&
  ('x-feature-level' in prop || 'x-removed-at' in prop || 'x-required-from' in prop);

/**
 * Rewrites local refs (#/components/...) to refs into the registered document. A property that
 * exists only at some feature levels cannot be required at all of them, so it leaves `required`
 * (responses are shaped to the request's level before they are checked); so does one that is
 * always present only from a level on (x-required-from), sometimes left out before it.
 */
function rebase(value: any): any {
  if (Array.isArray(value)) return value.map(rebase);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebase(v);
  }
  if (Array.isArray(value.required) && value.properties) out.required = requiredOf(value);
  return out;
}

/** The names a schema requires as checked: those gated by a level left out (see rebase). */
function requiredOf(schema: any): string[] {
  if (!Array.isArray(schema.required)) return [];
  if (!schema.properties) return schema.required;
  return schema.required.filter((name: string) => !gated(schema.properties[name]));
}

/** Follows a local $ref (one level at a time) to the object it names. */
export function resolveRef(doc: OpenApiDoc, value: any): any {
  let seen = 0;
  while (value && typeof value === 'object' && typeof value.$ref === 'string' && seen++ < 20) {
    const parts = value.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    value = parts.reduce((node: any, p: string) => node?.[p], doc);
  }
  return value;
}
