// The request a curl example of the real API documentation makes, built from the real 10.2
// description the way the real server's documentation builds it (facts read from
// zerver/openapi/openapi.py `get_openapi_parameters` and markdown_extension.py
// `generate_curl_example` / `get_openapi_param_example_value_as_string`):
// - a parameter's example is its own `example`, else its JSON content's `example`, else its
//   schema's `example`; without one, a scalar takes 1 (integer), "demo" (string) or false
//   (boolean), and an array or object has no example (the real build refuses it);
// - parameters are the operation's `parameters` and the properties of its form body (JSON where
//   the body's `encoding` says `application/json` or the property is an object);
// - every parameter except the path's is sent, optional ones too, unless the operation's
//   `x-curl-examples-parameters` variant includes only some or excludes some (one request per
//   variant);
// - arrays and objects are sent as JSON, and so are numbers, booleans and parameters described
//   with `content: application/json`; other strings as they are;
// - a GET sends them in the query (curl -G), every other method as a form body;
// - multipart bodies send each property's example as a file (curl -F name=@file).

/** Replacements a set-up gives (curl_param_value_generators.py): a parameter's value by name. */
export type Overrides = Record<string, unknown>;

export interface ExampleRequest {
  method: string;
  /** The path with its parameters filled in, below /api/v1. */
  path: string;
  /** The path template of the description. */
  template: string;
  /** Query (GET) or form body (others) fields, encoded. */
  fields: Record<string, string>;
  /** Multipart file fields: name -> example file name. */
  files: Record<string, string>;
  where: 'query' | 'body';
}

const DEFAULT_EXAMPLE: Record<string, unknown> = { integer: 1, string: 'demo', boolean: false };
const NO_EXAMPLE = Symbol('no example');

export class CurlExamples {
  constructor(private readonly doc: any) {}

  private resolve(value: any): any {
    let v = value;
    while (v?.$ref)
      v = v.$ref
        .slice(2)
        .split('/')
        .reduce((o: any, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    return v;
  }

  /**
   * A schema with its references followed and its allOf parts merged into it, later parts'
   * `example` winning (the real build merges allOf the same way before it reads examples).
   */
  private merged(schema: any): any {
    const s = this.resolve(schema);
    if (!s?.allOf) return s;
    const { allOf, ...own } = s;
    return allOf.reduce((acc: any, part: any) => {
      const p = this.merged(part) ?? {};
      return { ...p, ...acc, ...('example' in p ? { example: p.example } : {}) };
    }, own);
  }

  /** The type the real build reads: the schema's own, else its first oneOf member's. */
  private typeOf(schema: any): string {
    const s = this.merged(schema);
    return s?.type ?? this.merged(s?.oneOf?.[0])?.type ?? 'string';
  }

  /** The variants of an operation's curl example: include or exclude lists (none: all parameters). */
  variants(op: any): Array<{ include: string[] | null; exclude: string[] | null }> {
    const declared = op['x-curl-examples-parameters']?.oneOf ?? [{ type: 'exclude', parameters: { enum: [''] } }];
    return declared.map((v: any) => ({
      include: v.type === 'include' ? v.parameters.enum : null,
      exclude: v.type === 'exclude' ? v.parameters.enum : null,
    }));
  }

  /** One variant's request, with a set-up's replacements applied by parameter name. */
  build(
    method: string,
    template: string,
    variant: { include: string[] | null; exclude: string[] | null },
    overrides: Overrides,
  ): ExampleRequest {
    const op = this.doc.paths[template][method];
    const fields: Record<string, string> = {};
    let path = template;
    for (const raw of op.parameters ?? []) {
      const p = this.resolve(raw);
      const json = 'content' in p;
      const schema = json ? p.content['application/json'].schema : p.schema;
      let example: unknown =
        'example' in p
          ? p.example
          : json && 'example' in p.content['application/json']
            ? p.content['application/json'].example
            : (this.merged(schema)?.example ?? NO_EXAMPLE);
      if (p.name in overrides) example = overrides[p.name];
      const encoded = this.encode(p.name, this.typeOf(schema), json, example);
      if (p.in === 'path') {
        path = path.replace(`{${p.name}}`, encoded);
        continue;
      }
      if (variant.include && !variant.include.includes(p.name)) continue;
      if (variant.exclude?.includes(p.name)) continue;
      fields[p.name] = encoded;
    }
    // Form bodies: each property is a parameter; JSON where its encoding says so or it is an object.
    const requestBody = this.resolve(op.requestBody);
    const form = requestBody?.content?.['application/x-www-form-urlencoded'];
    if (form)
      for (const [name, raw] of Object.entries<any>(this.resolve(form.schema).properties ?? {})) {
        const schema = this.merged(raw);
        const type = this.typeOf(schema);
        const json = form.encoding?.[name]?.contentType === 'application/json' || type === 'object';
        if (variant.include && !variant.include.includes(name)) continue;
        if (variant.exclude?.includes(name)) continue;
        const example = name in overrides ? overrides[name] : 'example' in schema ? schema.example : NO_EXAMPLE;
        fields[name] = this.encode(name, type, json, example);
      }
    const files: Record<string, string> = {};
    const multipart = requestBody?.content?.['multipart/form-data'];
    if (multipart)
      for (const [name, prop] of Object.entries<any>(this.resolve(multipart.schema).properties ?? {}))
        files[name] = String(overrides[name] ?? prop.example);
    return { method: method.toUpperCase(), path, template, fields, files, where: method === 'get' ? 'query' : 'body' };
  }

  private encode(name: string, type: string, json: boolean, example: unknown): string {
    if (type === 'object' || type === 'array') {
      if (example === NO_EXAMPLE) throw new Error(`${name}: an array or object parameter needs an example`);
      return JSON.stringify(example);
    }
    const value = example === NO_EXAMPLE ? DEFAULT_EXAMPLE[type] : example;
    if (json || typeof value !== 'string') return JSON.stringify(value);
    return value;
  }
}
