// Turns the description into Operation records: how to find the operation from a request, which
// parameters it takes (where, how encoded, with a validator each) and how to check its responses.
// Each operation is made at start-up; its parameters and its response shape are read from the
// description on first use (making them for every operation took a tenth of the start-up, and a
// run uses few operations).
import type { ValidateFunction } from 'ajv';
import type { OpenApiDoc } from './load.js';
import { SchemaCompiler, resolveRef } from './ajv.js';
import { shapeOf, type ShapeNode } from './shape.js';
import { levelRange } from './levels.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'body';
  required: boolean;
  /**
   * A required parameter the real server stopped requiring at this level (x-required-until): from
   * it on, the parameter may be left out. Infinity when it stays required.
   */
  requiredUntil: number;
  /** The value travels as JSON text inside the form field or query value. */
  json: boolean;
  /** For JSON fields whose schema accepts a string: a value that is not JSON is taken as that string. */
  rawStringFallback: boolean;
  /** The primitive type a plain (non-JSON) value decodes to. */
  primitive: 'string' | 'integer' | 'number' | 'boolean' | 'any';
  schema: any;
  default: unknown;
  validate: ValidateFunction;
  /** Feature levels the parameter exists at: [addedAt, removedAt). */
  addedAt: number;
  removedAt: number;
  /** Enum values that appeared later than the parameter itself (x-enum-feature-levels). */
  enumLevels: Record<string, number> | null;
  /** Enum values (as strings) no longer taken from a level on (x-enum-removed-at). */
  enumRemovedAt: Record<string, number> | null;
}

export interface Operation {
  id: string;
  method: Method;
  /**
   * The path requests use, e.g. /messages/{message_id}/report: the description's key, below the
   * API prefix, or for an operation served at the site root its x-site-root path.
   */
  path: string;
  /** Served at the site root, outside the API prefix (x-site-root: downloads of uploads). */
  siteRoot: boolean;
  pathParamNames: string[];
  params: ParamSpec[];
  /** The parameters by name (which request keys the operation takes). */
  paramsByName: Map<string, ParamSpec>;
  authenticated: boolean;
  /** A read whose answer may be reused while the state and the second stay the same. */
  cacheable: boolean;
  deprecated: boolean;
  spec: any;
  /** Feature levels the operation exists at: [addedAt, removedAt). */
  addedAt: number;
  removedAt: number;
  /** Response validators by status ('200', '400', ..., 'default'). */
  responses: Map<string, ValidateFunction>;
  /** Success-response fields gated by feature level (null when none are). */
  shape: ShapeNode | null;
  /** Parameters that need others beside them (the body schema's dependentRequired), or null. */
  dependentRequired: Record<string, string[]> | null;
}

function primitiveOf(schema: any): ParamSpec['primitive'] {
  const t = Array.isArray(schema?.type) ? schema.type.find((x: string) => x !== 'null') : schema?.type;
  return t === 'string' || t === 'integer' || t === 'number' || t === 'boolean' ? t : 'any';
}

function acceptsString(doc: OpenApiDoc, schema: any): boolean {
  const s = resolveRef(doc, schema);
  if (!s || typeof s !== 'object') return false;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string')) return true;
  return [...(s.oneOf ?? []), ...(s.anyOf ?? [])].some((b: any) => acceptsString(doc, b));
}

type ParamBase = Omit<
  ParamSpec,
  | 'validate'
  | 'primitive'
  | 'rawStringFallback'
  | 'default'
  | 'addedAt'
  | 'removedAt'
  | 'enumLevels'
  | 'enumRemovedAt'
  | 'requiredUntil'
> & { carrier?: any };

function paramSpec(doc: OpenApiDoc, compiler: SchemaCompiler, { carrier, ...base }: ParamBase): ParamSpec {
  const schema = resolveRef(doc, base.schema) ?? {};
  return {
    ...base,
    ...levelRange(carrier, schema),
    requiredUntil: carrier?.['x-required-until'] ?? schema['x-required-until'] ?? Number.POSITIVE_INFINITY,
    enumLevels: schema['x-enum-feature-levels'] ?? null,
    enumRemovedAt: schema['x-enum-removed-at'] ?? null,
    primitive: base.json ? 'any' : primitiveOf(schema),
    rawStringFallback: base.json && acceptsString(doc, base.schema),
    default: schema.default,
    validate: compiler.lazy(base.schema ?? {}),
  };
}

function collectParams(doc: OpenApiDoc, compiler: SchemaCompiler, item: any, op: any): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = resolveRef(doc, raw);
    const jsonContent = p.content?.['application/json'];
    out.push(
      paramSpec(doc, compiler, {
        name: p.name,
        in: p.in === 'path' ? 'path' : 'query',
        required: !!p.required,
        json: !!jsonContent,
        schema: jsonContent ? jsonContent.schema : p.schema,
        carrier: p,
      }),
    );
  }
  const body = resolveRef(doc, op.requestBody);
  // Form bodies (the API) or JSON bodies (the control API): either way one object of named fields.
  const form =
    body?.content?.['application/x-www-form-urlencoded'] ??
    body?.content?.['multipart/form-data'] ??
    body?.content?.['application/json'];
  if (form) {
    const schema = resolveRef(doc, form.schema) ?? {};
    const required = new Set<string>(schema.required ?? []);
    for (const [name, propSchema] of Object.entries<any>(schema.properties ?? {})) {
      const contentType: string | undefined = form.encoding?.[name]?.contentType;
      out.push(
        paramSpec(doc, compiler, {
          name,
          in: 'body',
          required: required.has(name),
          json: !!contentType && contentType.includes('json'),
          schema: propSchema,
          // A $ref'd field (a group-setting update) keeps its own x-feature-level beside the $ref.
          carrier: propSchema,
        }),
      );
    }
  }
  return out;
}

/** The body schema's dependentRequired: JSON Schema's way to say that parameters go together. */
function dependentRequiredOf(doc: OpenApiDoc, op: any): Record<string, string[]> | null {
  const content = resolveRef(doc, op.requestBody)?.content ?? {};
  const form =
    content['application/x-www-form-urlencoded'] ?? content['multipart/form-data'] ?? content['application/json'];
  return resolveRef(doc, form?.schema)?.dependentRequired ?? null;
}

function responseSchema(doc: OpenApiDoc, response: any): any {
  const r = resolveRef(doc, response);
  return r?.content?.['application/json']?.schema;
}

const pathParamNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/**
 * Where an operation is served: its key, or the path its x-site-root names (the key of such an
 * operation only keeps it apart from an API operation at the same path; see api.yaml's header).
 */
function servedPath(key: string, op: any): string {
  const root = op['x-site-root'];
  if (root === undefined) return key;
  const sameParams =
    typeof root === 'string' &&
    root.startsWith('/') &&
    pathParamNames(root).sort().join() === pathParamNames(key).sort().join();
  if (!sameParams)
    throw new Error(
      `${op.operationId}: x-site-root must be the path it is served at, with the parameters of its key ${key} (got ${JSON.stringify(root)})`,
    );
  return root;
}

/**
 * An operation whose parameters and response shape are read from the description on first use.
 * A class with getters keeps every operation of one shape (hidden class) for the engine, which
 * redefining properties on plain objects would not.
 */
class DescribedOperation implements Operation {
  #params: ParamSpec[] | null = null;
  #paramsByName: Map<string, ParamSpec> | null = null;
  #shape: ShapeNode | null | undefined = undefined;
  readonly #doc: OpenApiDoc;
  readonly #compiler: SchemaCompiler;
  /** The path item (its parameters are the operation's too). */
  readonly #item: any;

  constructor(
    doc: OpenApiDoc,
    compiler: SchemaCompiler,
    item: any,
    readonly id: string,
    readonly method: Method,
    readonly path: string,
    readonly siteRoot: boolean,
    readonly pathParamNames: string[],
    readonly addedAt: number,
    readonly removedAt: number,
    readonly authenticated: boolean,
    readonly cacheable: boolean,
    readonly deprecated: boolean,
    readonly spec: any,
    readonly responses: Map<string, ValidateFunction>,
    readonly dependentRequired: Record<string, string[]> | null,
  ) {
    this.#doc = doc;
    this.#compiler = compiler;
    this.#item = item;
  }

  get params(): ParamSpec[] {
    return (this.#params ??= collectParams(this.#doc, this.#compiler, this.#item, this.spec));
  }

  get paramsByName(): Map<string, ParamSpec> {
    return (this.#paramsByName ??= new Map(this.params.map((p) => [p.name, p])));
  }

  get shape(): ShapeNode | null {
    if (this.#shape === undefined)
      this.#shape = shapeOf(this.#doc, responseSchema(this.#doc, this.spec.responses?.['200']));
    return this.#shape;
  }
}

export function buildOperations(doc: OpenApiDoc, compiler = new SchemaCompiler(doc)): Operation[] {
  const ops: Operation[] = [];
  const globalSecurity = (doc as any).security ?? [];
  for (const [key, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const path = servedPath(key, op);
      const responses = new Map<string, ValidateFunction>();
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        const schema = responseSchema(doc, response);
        if (schema) responses.set(status, compiler.lazy(schema, `${op.operationId} ${status}`));
      }
      const security = op.security ?? globalSecurity;
      const { addedAt, removedAt } = levelRange(op);
      const operation = new DescribedOperation(
        doc,
        compiler,
        item,
        op.operationId,
        method,
        path,
        op['x-site-root'] !== undefined,
        pathParamNames(path),
        addedAt,
        removedAt,
        security.length > 0,
        // A download answers bytes, not a JSON body the answer cache could keep.
        method === 'get' && op['x-changes-state'] !== true && op['x-site-root'] === undefined,
        !!op.deprecated,
        op,
        responses,
        dependentRequiredOf(doc, op),
      );
      ops.push(operation);
    }
  }
  return ops;
}
