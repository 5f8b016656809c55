// The compiled contract: the description, its operations, a router over them and the response
// check. Built once at start-up (compileContract) and shared by every request.
import type { ValidateFunction } from 'ajv';
import { loadDescription, type OpenApiDoc } from './load.js';
import { SchemaCompiler, resolveRef } from './ajv.js';
import { buildOperations, type Operation } from './operations.js';
import { Router } from './router.js';
import { checkSkippingParts } from './check-parts.js';

export interface ResponseProblem {
  /** JSON pointer into the body where the description was broken ('' for the whole body). */
  path: string;
  message: string;
}

/** Responses every operation may give without declaring them, by status. */
const SHARED_RESPONSES: Record<string, string> = {
  '401': 'Unauthorized',
  '404': 'NotFound',
  '405': 'MethodNotAllowed',
  '429': 'TooManyRequests',
  '5XX': 'ServerError',
};

export class Contract {
  readonly operations: Operation[];
  readonly byId = new Map<string, Operation>();
  readonly router: Router;
  private readonly shared = new Map<string, ValidateFunction>();
  private readonly genericError: ValidateFunction;
  private readonly compiler: SchemaCompiler;

  constructor(
    readonly doc: OpenApiDoc,
    readonly prefix = '/api/v1',
  ) {
    const compiler = (this.compiler = new SchemaCompiler(doc));
    this.operations = buildOperations(doc, compiler);
    for (const op of this.operations) this.byId.set(op.id, op);
    this.router = new Router(this.operations, prefix);
    for (const [status, name] of Object.entries(SHARED_RESPONSES)) {
      const schema = resolveRef(doc, { $ref: `#/components/responses/${name}` })?.content?.['application/json']?.schema;
      if (schema) this.shared.set(status, compiler.lazy(schema));
    }
    const generic = doc.components.schemas?.JsonError ? 'JsonError' : 'ErrorBody';
    this.genericError = compiler.lazy({ $ref: `#/components/schemas/${generic}` });
  }

  /** Validators compile on first use; this compiles them all (and throws on a schema that cannot). */
  compileAll(): void {
    // Parameters (and their validators) are made on first use: make every operation's.
    for (const op of this.operations) void op.params;
    this.compiler.compileAll();
  }

  /** The validator for a response of `op` (or of no operation) with this status. */
  private validatorFor(op: Operation | null, status: number): ValidateFunction | null {
    const s = String(status);
    const family = `${s[0]}XX`;
    const own = op && (op.responses.get(s) ?? op.responses.get(family) ?? op.responses.get('default'));
    if (own) return own;
    const shared = this.shared.get(s) ?? this.shared.get(family);
    if (shared) return shared;
    return status >= 400 ? this.genericError : null;
  }

  /** ajv's standalone code of the validator named `name` ("operation-id status"), for the build (prebuilt.ts). */
  standaloneCode(name: string): string | null {
    return this.compiler.standaloneCode(name);
  }

  /** Checks a response body against the description; returns the problems (empty when it fits). */
  checkResponse(op: Operation | null, status: number, body: unknown): ResponseProblem[] {
    const validate = this.validatorFor(op, status);
    if (!validate) return [{ path: '', message: `status ${status} is not described for ${op?.id ?? 'this path'}` }];
    if (op && status === 200 && checkSkippingParts(this.doc, op, validate, body)) return [];
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => ({ path: e.instancePath, message: `${e.message ?? e.keyword}` }));
  }
}

export function compileContract(name: 'api' | 'control' = 'api'): Contract {
  return new Contract(loadDescription(name), name === 'api' ? '/api/v1' : '/__mock');
}
