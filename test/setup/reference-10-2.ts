// The reference check: an answer the mock gives at feature level 372 must be one the real 10.2
// server could give. Success responses are validated against the real server's own published
// description of 10.2 (zulip-10.2.yaml, read at test time from the shared reference folder and
// never copied into the project), every event of GET /events against the event schema of its
// kind, and the sections of POST /register against the rules of which fields are present for
// which fetch_event_types (register-presence.ts). Error answers are not checked: the real
// server's own test validator skips them, so its description keeps them loosely.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import YAML from 'yaml';
import { presenceProblems, presenceRules, type PresenceRule } from './register-presence.js';

const Ajv = (AjvModule as any).default ?? AjvModule;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

/** The level the reference description is of. */
export const REFERENCE_LEVEL = 372;
const FILE = 'zulip-10.2.yaml';
const DOC_ID = 'zulip-10.2';

/**
 * The reference file: $ZULIP_10_2_YAML, else `shared/reference/zulip-10.2.yaml` beside the
 * checkout or any folder above it (a worktree sits deeper than the main checkout).
 */
export function referencePath(): string | null {
  if (process.env.ZULIP_10_2_YAML) return existsSync(process.env.ZULIP_10_2_YAML) ? process.env.ZULIP_10_2_YAML : null;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'shared', 'reference', FILE);
    if (existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

export interface ReferenceExchange {
  method: string;
  /** The operation's path template, below /api/v1. */
  path: string;
  status: number;
  body: unknown;
  /** Decoded request parameters (register presence depends on them). */
  params: Record<string, unknown> | null;
}

/** Path templates compared without their parameters' names ({stream_id} and {id} alike). */
const templateKey = (method: string, p: string) => `${method.toLowerCase()} ${p.replace(/\{[^}]+\}/g, '{}')}`;

/**
 * Operations the real 10.2 server routes (zproject/urls.py at 10.2) that its description does not
 * describe: their answers have nothing to be checked against.
 */
const UNDESCRIBED_AT_10_2 = new Set(
  [
    'PATCH /realm',
    'GET /bots',
    'POST /bots',
    'PATCH /bots/{bot_id}',
    'DELETE /bots/{bot_id}',
    'POST /bots/{bot_id}/api_key/regenerate',
    'POST /default_stream_groups/create',
    'PATCH /default_stream_groups/{group_id}',
    'PATCH /default_stream_groups/{group_id}/streams',
    'DELETE /default_stream_groups/{group_id}',
    'GET /realm/domains',
    'POST /realm/domains',
    'PATCH /realm/domains/{domain}',
    'DELETE /realm/domains/{domain}',
    'POST /realm/deactivate',
    'POST /users/me/avatar',
    'DELETE /users/me/avatar',
    'PATCH /users/me/profile_data',
    'DELETE /users/me/profile_data',
    'DELETE /export/realm/{export_id}',
    'POST /jwt/fetch_api_key',
    'PATCH /realm/profile_fields/{field_id}',
    'DELETE /realm/profile_fields/{field_id}',
    'PATCH /users/me/subscriptions/{stream_id}',
  ].map((op) => templateKey(op.split(' ')[0], op.split(' ')[1])),
);

/**
 * Events the real 10.2 server sends that its description does not allow (it is known to lag the
 * server in places; see the reference folder's README), each with why it is known.
 */
const KNOWN_GAPS: Array<(event: any) => boolean> = [
  // Deleting a channel's last messages leaves it no first message: 10.2's message deletion sends
  // first_message_id null, which the description's `value` (no null) does not admit.
  (e) => e?.type === 'stream' && e.op === 'update' && e.property === 'first_message_id' && e.value === null,
];

/**
 * Fields the real 10.2 server sends that its description leaves out, each read in its code: the
 * rest of the answer is still checked. The sender's own message event carries the client's
 * `local_message_id` (zerver/tornado/event_queue.py, for the queue that sent it); GET /users/me
 * is the caller's user object (get_profile_backend: format_user_row), which for a bot has
 * `bot_type` and `bot_owner_id`.
 */
function withoutKnownExtras(event: any): any {
  if (event?.type !== 'message' || !('local_message_id' in event)) return event;
  const { local_message_id: _, ...rest } = event;
  return rest;
}
const OWN_USER_BOT_FIELDS = ['bot_type', 'bot_owner_id'];

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const MAX_PROBLEMS = 30;

interface EventForm {
  types: string[];
  ops: string[] | null;
  validate: ValidateFunction;
}

export class ReferenceChecker {
  private readonly ajv: any;
  private readonly pointers = new Map<string, string>();
  private readonly validators = new Map<string, ValidateFunction>();
  private eventForms: EventForm[] | null = null;
  readonly presence: Map<string, PresenceRule>;

  constructor(readonly doc: any) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...withoutNullable(doc), $id: DOC_ID });
    for (const [p, item] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(item))
        this.pointers.set(templateKey(method, p), `${DOC_ID}#/paths/${escape(p)}/${method}`);
    }
    this.presence = presenceRules(this.registerFields());
  }

  static load(file: string): ReferenceChecker {
    return new ReferenceChecker(YAML.parse(readFileSync(file, 'utf8')));
  }

  private resolve(schema: any): any {
    let s = schema;
    while (s?.$ref)
      s = s.$ref
        .split('/')
        .slice(1)
        .reduce((o: any, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    return s;
  }

  /** The register response's own fields (the second part of its allOf), with their descriptions. */
  private registerFields(): Record<string, any> {
    const schema = this.doc.paths['/register'].post.responses['200'].content['application/json'].schema;
    const parts = (schema.allOf ?? [schema]).map((p: any) => this.resolve(p));
    return Object.assign({}, ...parts.map((p: any) => p.properties ?? {}));
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.validators.get(pointer);
    if (!v) this.validators.set(pointer, (v = this.ajv.compile({ $ref: pointer })));
    return v!;
  }

  private forms(): EventForm[] {
    if (this.eventForms) return this.eventForms;
    const base =
      '/paths/~1events/get/responses/200/content/application~1json/schema/allOf/1/properties/events/items/oneOf';
    const members: any[] =
      this.doc.paths['/events'].get.responses['200'].content['application/json'].schema.allOf[1].properties.events.items
        .oneOf;
    this.eventForms = members.map((m, i) => {
      const parts = [m, ...(m.allOf ?? [])].map((p: any) => this.resolve(p));
      const props = Object.assign({}, ...parts.map((p: any) => p.properties ?? {}));
      const enums = (s: any): string[] | null => {
        const r = this.resolve(s);
        const found = [r?.enum, ...(r?.allOf ?? []).map((x: any) => this.resolve(x)?.enum)].find(Array.isArray);
        return found ?? null;
      };
      return {
        types: enums(props.type) ?? [],
        ops: props.op ? enums(props.op) : null,
        validate: this.validator(`${DOC_ID}#${base}/${i}`),
      };
    });
    return this.eventForms;
  }

  /** Problems of one event: no 10.2 kind has its type/op, or it fits none of the forms that do. */
  eventProblems(raw: any, where: string): string[] {
    if (KNOWN_GAPS.some((gap) => gap(raw))) return [];
    const event = withoutKnownExtras(raw);
    const candidates = this.forms().filter(
      (f) => f.types.includes(event?.type) && (!f.ops || f.ops.includes(event?.op)),
    );
    if (!candidates.length)
      return [`${where}: no event of type ${event?.type}${event?.op ? `/${event.op}` : ''} at 10.2`];
    let best: ErrorObject[] | null = null;
    for (const form of candidates) {
      if (form.validate(event)) return [];
      const errors = form.validate.errors ?? [];
      if (!best || errors.length < best.length) best = [...errors];
    }
    const kind = [event.type, event.op, event.property].filter((x) => typeof x === 'string').join('/');
    return describe(best ?? [], `${where} (${kind})`);
  }

  /** Every problem of a success answer against 10.2; [] for answers it does not check. */
  check(ex: ReferenceExchange): string[] {
    if (ex.status < 200 || ex.status >= 300) return [];
    const pointer = this.pointers.get(templateKey(ex.method, ex.path));
    if (!pointer) {
      if (UNDESCRIBED_AT_10_2.has(templateKey(ex.method, ex.path))) return [];
      return [`${ex.method} ${ex.path}: no such operation at 10.2`];
    }
    const op = this.resolve({ $ref: `#${pointer.slice(DOC_ID.length + 1)}` });
    const response = op.responses?.[String(ex.status)] ?? op.responses?.default;
    const media = response?.content?.['application/json'];
    if (!media?.schema || typeof ex.body !== 'object' || ex.body === null) return [];
    const status = op.responses?.[String(ex.status)] ? String(ex.status) : 'default';
    const schemaPointer = `${pointer}/responses/${status}/content/application~1json/schema`;
    const problems: string[] = [];
    let body = ex.body as Record<string, unknown>;
    const isEvents = ex.path === '/events' && Array.isArray(body.events);
    if (isEvents) {
      (body.events as unknown[]).forEach((e, i) => problems.push(...this.eventProblems(e, `/events/${i}`)));
      body = { ...body, events: [] };
    }
    if (ex.path === '/users/me' && ex.method.toUpperCase() === 'GET' && 'bot_type' in body)
      body = Object.fromEntries(Object.entries(body).filter(([k]) => !OWN_USER_BOT_FIELDS.includes(k)));
    const validate = this.validator(schemaPointer);
    if (!validate(body)) problems.push(...describe(validate.errors ?? [], ''));
    if (ex.path === '/register' && ex.method.toUpperCase() === 'POST')
      problems.push(...presenceProblems(this.presence, body, ex.params ?? {}));
    // Rows of a list differ alike: the first row's problem stands for the others.
    const distinct = [...new Map(problems.map((p) => [p.replace(/\/\d+(?=\/|:)/g, '/*'), p])).values()];
    return distinct.slice(0, MAX_PROBLEMS).map((p) => `${ex.method.toUpperCase()} ${ex.path} ${ex.status}: ${p}`);
  }
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: null added to the type (and enum), or, beside
 * no type (a $ref, an allOf), the schema as one branch of an anyOf with null.
 */
function withoutNullable(value: any): any {
  if (Array.isArray(value)) return value.map(withoutNullable);
  if (!value || typeof value !== 'object') return value;
  const { nullable, ...rest } = value;
  const out: any = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, withoutNullable(v)]));
  if (nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/** Ajv's errors as lines; the branches of a oneOf repeat their members' errors, so only leaves count. */
function describe(errors: ErrorObject[], prefix: string): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    const where = `${prefix}${e.instancePath}`;
    if (e.keyword === 'additionalProperties')
      lines.add(`${where}/${(e.params as any).additionalProperty}: field not in 10.2`);
    else if (e.keyword === 'required')
      lines.add(`${where}/${(e.params as any).missingProperty}: required at 10.2, missing`);
    else
      lines.add(
        `${where || '/'}: ${e.message}${e.keyword === 'enum' ? ` ${JSON.stringify((e.params as any).allowedValues)}` : ''}`,
      );
  }
  return [...lines];
}

let shared: ReferenceChecker | null | undefined;
/** The checker over the reference file, or null when the file is absent (said once, on stderr). */
export function referenceChecker(): ReferenceChecker | null {
  if (shared !== undefined) return shared;
  const file = referencePath();
  if (!file)
    console.warn(
      `reference check skipped: ${FILE} not found (set ZULIP_10_2_YAML or put it in shared/reference/ above the checkout)`,
    );
  shared = file ? ReferenceChecker.load(file) : null;
  return shared;
}
