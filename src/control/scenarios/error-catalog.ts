// Defaults for injected errors, read from the description's own examples: for each error code the
// HTTP status, msg and extra fields the real server gives. An operation's own example wins over
// another operation's, so `BAD_REQUEST` on report-message reads as report-message would say it;
// within an operation the first example of a code wins. Every example an operation describes is
// also kept under its name, so a scenario can pick one (`respond: {example: NAME}`) when several
// share a code with different wording.
import type { Contract } from '../../contract/contract.js';
import { resolveRef } from '../../contract/ajv.js';

export interface ErrorDefault {
  status: number;
  body: Record<string, unknown>;
}

/** One example of an operation's responses: its name (null for a lone `example`), status and body. */
export interface DescribedExample extends ErrorDefault {
  name: string | null;
}

type Catalog = Map<string, ErrorDefault>;

function examplesOf(doc: any, response: any): Array<{ name: string | null; value: unknown }> {
  const media = resolveRef(doc, response)?.content?.['application/json'];
  if (!media) return [];
  const out: Array<{ name: string | null; value: unknown }> = [];
  if (media.example) out.push({ name: null, value: media.example });
  for (const [name, ex] of Object.entries<any>(media.examples ?? {}))
    out.push({ name, value: resolveRef(doc, ex)?.value });
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isError = (body: Record<string, unknown>) => body.result === 'error' && typeof body.code === 'string';

function add(catalog: Catalog, { status, body }: ErrorDefault): void {
  if (isError(body) && !catalog.has(body.code as string)) catalog.set(body.code as string, { status, body });
}

export class ErrorCatalog {
  private made: {
    global: Catalog;
    perOperation: Map<string, Catalog>;
    described: Map<string, DescribedExample[]>;
  } | null = null;

  constructor(private readonly contract: Contract) {}

  // Read from the description on first use (scenarios and the coverage report ask; most runs
  // never do): reading every operation's examples at start took a twentieth of the start-up.
  private get global(): Catalog {
    return (this.made ??= this.read()).global;
  }
  private get perOperation(): Map<string, Catalog> {
    return (this.made ??= this.read()).perOperation;
  }
  private get described(): Map<string, DescribedExample[]> {
    return (this.made ??= this.read()).described;
  }

  private read() {
    const { contract } = this;
    const global: Catalog = new Map();
    const perOperation = new Map<string, Catalog>();
    const described = new Map<string, DescribedExample[]>();
    const doc = contract.doc;
    for (const op of contract.operations) {
      const all: DescribedExample[] = [];
      for (const [status, response] of Object.entries<any>(op.spec.responses ?? {})) {
        if (!/^\d+$/.test(status)) continue;
        for (const { name, value } of examplesOf(doc, response))
          if (isObject(value)) all.push({ name, status: Number(status), body: value });
      }
      const own: Catalog = new Map();
      for (const ex of all) add(own, ex);
      described.set(op.id, all);
      perOperation.set(op.id, own);
      for (const [code, d] of own) if (!global.has(code)) global.set(code, d);
    }
    const shared: Record<string, number> = { TooManyRequests: 429, Unauthorized: 401, ServerError: 500, NotFound: 404 };
    for (const [name, status] of Object.entries(shared)) {
      for (const { value } of examplesOf(doc, doc.components.responses?.[name]))
        if (isObject(value)) add(global, { status, body: value });
    }
    return { global, perOperation, described };
  }

  /** The error codes the description's examples give for an operation (its own responses, shared ones included), sorted. */
  documentedCodes(operationId: string): string[] {
    return [...(this.perOperation.get(operationId)?.keys() ?? [])].sort();
  }

  /** Every error example of an operation's responses, shared ones included, in the description's order. */
  errorExamples(operationId: string): DescribedExample[] {
    return (this.described.get(operationId) ?? []).filter((ex) => isError(ex.body));
  }

  /** Every example of an operation's responses that is not an error, in the description's order. */
  successExamples(operationId: string): DescribedExample[] {
    return (this.described.get(operationId) ?? []).filter((ex) => !isError(ex.body));
  }

  /** The names of an operation's examples (success and error), or null when there is no such operation. */
  exampleNames(operationId: string): string[] | null {
    const all = this.described.get(operationId);
    return all ? all.flatMap((ex) => (ex.name === null ? [] : [ex.name])) : null;
  }

  /** The operation's example of that name (several responses may use one name: the first). */
  example(operationId: string, name: string): DescribedExample | undefined {
    return this.described.get(operationId)?.find((ex) => ex.name === name);
  }

  lookup(code: string, operationId: string | null): ErrorDefault | undefined {
    return (operationId ? this.perOperation.get(operationId)?.get(code) : undefined) ?? this.global.get(code);
  }
}
