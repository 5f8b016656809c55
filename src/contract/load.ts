// Loads openapi/api.yaml and merges every fragment of openapi/paths/ into it, so that the
// rest of the server sees one document. Fragments keep files small and owned per resource.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

export type OpenApiDoc = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, any>>;
  components: Record<string, Record<string, any>>;
  [key: string]: unknown;
};

/** The folder holding the description: next to src/ in the source tree and in dist/. */
export function openapiDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const up of ['../..', '../../..']) {
    const dir = path.resolve(here, up, 'openapi');
    try { readdirSync(dir); return dir; } catch { /* try the next level */ }
  }
  throw new Error(`openapi/ folder not found above ${here}`);
}

function readYaml(file: string): any {
  try {
    return YAML.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

/** Merges `fragment` into `doc`; a path+method or component defined twice is an error. */
function mergeFragment(doc: OpenApiDoc, fragment: any, file: string): void {
  for (const [p, item] of Object.entries<Record<string, any>>(fragment.paths ?? {})) {
    const target = (doc.paths[p] ??= {});
    for (const [method, op] of Object.entries(item)) {
      if (target[method]) throw new Error(`${file}: ${method.toUpperCase()} ${p} is already described`);
      target[method] = op;
    }
  }
  for (const [section, entries] of Object.entries<Record<string, any>>(fragment.components ?? {})) {
    const target = (doc.components[section] ??= {});
    for (const [name, value] of Object.entries(entries)) {
      if (target[name]) throw new Error(`${file}: components.${section}.${name} is already defined`);
      target[name] = value;
    }
  }
}

/** Reads the root document `name` (api.yaml or control.yaml) with its fragments folder. */
export function loadDescription(name = 'api', dir = openapiDir()): OpenApiDoc {
  const doc = readYaml(path.join(dir, `${name}.yaml`)) as OpenApiDoc;
  doc.paths ??= {};
  doc.components ??= {};
  const fragmentsDir = path.join(dir, name === 'api' ? 'paths' : `${name}-paths`);
  let files: string[] = [];
  try { files = readdirSync(fragmentsDir).filter((f) => f.endsWith('.yaml')).sort(); } catch { /* none */ }
  for (const f of files) {
    const file = path.join(fragmentsDir, f);
    mergeFragment(doc, readYaml(file), file);
  }
  return doc;
}
