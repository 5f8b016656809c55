// Defaults for injected errors, read from the description's own examples: for each error code the
// HTTP status, msg and extra fields the real server gives. An operation's own example wins over
// another operation's, so `BAD_REQUEST` on report-message reads as report-message would say it.
import type { Contract } from '../../contract/contract.js';
import { resolveRef } from '../../contract/ajv.js';

export interface ErrorDefault {
  status: number;
  body: Record<string, unknown>;
}

type Catalog = Map<string, ErrorDefault>;

function examplesOf(doc: any, response: any): unknown[] {
  const media = resolveRef(doc, response)?.content?.['application/json'];
  if (!media) return [];
  const out: unknown[] = [];
  if (media.example) out.push(media.example);
  for (const ex of Object.values<any>(media.examples ?? {})) out.push(resolveRef(doc, ex)?.value);
  return out;
}

function add(catalog: Catalog, status: number, example: unknown): void {
  if (!example || typeof example !== 'object') return;
  const body = example as Record<string, unknown>;
  if (body.result !== 'error' || typeof body.code !== 'string') return;
  if (!catalog.has(body.code)) catalog.set(body.code, { status, body });
}

export class ErrorCatalog {
  private readonly global: Catalog = new Map();
  private readonly perOperation = new Map<string, Catalog>();

  constructor(contract: Contract) {
    const doc = contract.doc;
    for (const op of contract.operations) {
      const own: Catalog = new Map();
      for (const [status, response] of Object.entries<any>(op.spec.responses ?? {})) {
        if (!/^\d+$/.test(status)) continue;
        for (const ex of examplesOf(doc, response)) add(own, Number(status), ex);
      }
      this.perOperation.set(op.id, own);
      for (const [code, d] of own) if (!this.global.has(code)) this.global.set(code, d);
    }
    const shared: Record<string, number> = { TooManyRequests: 429, Unauthorized: 401, ServerError: 500, NotFound: 404 };
    for (const [name, status] of Object.entries(shared)) {
      for (const ex of examplesOf(doc, doc.components.responses?.[name])) add(this.global, status, ex);
    }
  }

  /** The error codes the description's examples give for an operation (its own responses, shared ones included), sorted. */
  documentedCodes(operationId: string): string[] {
    return [...(this.perOperation.get(operationId)?.keys() ?? [])].sort();
  }

  lookup(code: string, operationId: string | null): ErrorDefault | undefined {
    return (operationId ? this.perOperation.get(operationId)?.get(code) : undefined) ?? this.global.get(code);
  }
}
