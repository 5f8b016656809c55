// Loads openapi/api.yaml and merges every fragment of openapi/paths/ into it, so that the
// rest of the server sees one document. Fragments keep files small and owned per resource:
// each path item lives whole in one fragment, named for its resource.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { packagePath } from '../package-root.js';

export type OpenApiDoc = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, any>>;
  components: Record<string, Record<string, any>>;
  [key: string]: unknown;
};

/** The folder holding the description. */
const openapiDir = (): string => packagePath('openapi');

function readYaml(file: string): any {
  try {
    return YAML.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

/**
 * Merges `fragment` into `doc`. A path item belongs to one file (`owners` says which): a path
 * described in two files, even with different methods, is refused, so that whoever looks for an
 * operation finds all of its path in one place. A component defined twice is refused too.
 */
function mergeFragment(doc: OpenApiDoc, fragment: any, file: string, owners: Map<string, string>): void {
  for (const [p, item] of Object.entries<Record<string, any>>(fragment.paths ?? {})) {
    const owner = owners.get(p);
    if (owner)
      throw new Error(`path ${p} is described in two files, ${owner} and ${file}: a path item belongs in one fragment`);
    owners.set(p, file);
    // Each operation remembers its fragment: the resource it belongs to (coverage groups by it).
    const resource = path.basename(file, '.yaml');
    for (const op of Object.values<any>(item))
      if (op && typeof op === 'object' && op.operationId) op['x-resource'] ??= resource;
    doc.paths[p] = item;
  }
  for (const [section, entries] of Object.entries<Record<string, any>>(fragment.components ?? {})) {
    const target = (doc.components[section] ??= {});
    for (const [name, value] of Object.entries(entries)) {
      if (target[name]) throw new Error(`${file}: components.${section}.${name} is already defined`);
      target[name] = value;
    }
  }
}

/** Raised when merging changes what it adds to the document, so that bundles made before are not read. */
const MERGE_VERSION = 2;

/** The YAML files of document `name`: the root first, then its fragments in name order. */
function sourceFiles(name: string, dir: string): string[] {
  const fragmentsDir = path.join(dir, name === 'api' ? 'paths' : `${name}-paths`);
  let files: string[] = [];
  try {
    files = readdirSync(fragmentsDir)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
  } catch {
    /* none */
  }
  return [path.join(dir, `${name}.yaml`), ...files.map((f) => path.join(fragmentsDir, f))];
}

/**
 * Reads the root document `name` (api.yaml or control.yaml) with its fragments folder, or
 * another YAML document of the folder (behaviours.yaml: it has no fragments).
 */
export function loadDescription(name = 'api', dir = openapiDir()): OpenApiDoc {
  return readBundle(name, dir) ?? loadYamlOnly(name, dir);
}

// The build also writes each merged document as JSON (dist/openapi-bundle/NAME.json): parsing the
// YAML took most of the start-up time once the validators compiled lazily. A bundle is used only
// while every source file still has the size and time it was made from; otherwise the YAML is read.
const bundleFile = (name: string) => packagePath('dist', 'openapi-bundle', `${name}.json`);

/** What a bundle was made from: each source file's path, size and time (see readBundle). */
export function bundleSignature(name: string, dir: string): string {
  const files = sourceFiles(name, dir).map((f) => {
    const s = statSync(f);
    return `${f}:${s.size}:${s.mtimeMs}`;
  });
  return [`merge ${MERGE_VERSION}`, ...files].join('\n');
}

/** A description's bundle: what it was made from, the document, and validators the build compiled for it. */
interface Bundle {
  signature: string;
  doc: OpenApiDoc;
  validators?: Record<string, string>;
}

/** The validators a bundle carries, by the document read from it (see prebuilt.ts). */
const PREBUILT = new WeakMap<OpenApiDoc, Record<string, string>>();

/** Keeps validators compiled for `doc` (ajv's standalone code, by name) with it. */
export function keepValidators(doc: OpenApiDoc, validators: Record<string, string>): void {
  PREBUILT.set(doc, validators);
}

/** The standalone code the build compiled for the validator `name` of `doc`, if it did. */
export function prebuiltValidator(doc: OpenApiDoc, name: string): string | undefined {
  const validators = PREBUILT.get(doc);
  return validators && Object.hasOwn(validators, name) ? validators[name] : undefined;
}

function readBundle(name: string, dir: string): OpenApiDoc | null {
  const file = bundleFile(name);
  if (!existsSync(file)) return null;
  try {
    const bundle = JSON.parse(readFileSync(file, 'utf8')) as Bundle;
    if (bundle.signature !== bundleSignature(name, dir)) return null;
    if (bundle.validators) keepValidators(bundle.doc, bundle.validators);
    return bundle.doc;
  } catch {
    return null;
  }
}

/**
 * Adds validators compiled for the document of bundle `name` to that bundle (the build, from
 * dist/: see prebuilt.ts), so that they are only ever used with the document they were compiled from.
 */
export function addToBundle(name: string, validators: Record<string, string>): void {
  const file = bundleFile(name);
  const bundle = JSON.parse(readFileSync(file, 'utf8')) as Bundle;
  writeFileSync(file, asciiJson({ ...bundle, validators }));
}

/**
 * Writes the bundles (run by `npm run build`, from dist/); returns the files written.
 * @public (scripts/bundle-description.mjs imports it from dist/, where knip cannot follow)
 */
export function writeBundles(names = ['api', 'control', 'behaviours'], dir = openapiDir()): string[] {
  return names.map((name) => {
    const file = bundleFile(name);
    mkdirSync(path.dirname(file), { recursive: true });
    const doc = loadYamlOnly(name, dir);
    writeFileSync(file, asciiJson({ signature: bundleSignature(name, dir), doc }));
    return file;
  });
}

/**
 * JSON with every character beyond ASCII written as a \u escape: the same value, read at start
 * into a one-byte string at copying speed (a handful of such characters in the description made
 * the whole 750 KB bundle decode as UTF-8 into a two-byte string, and parse slower).
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function loadYamlOnly(name: string, dir: string): OpenApiDoc {
  const [root, ...fragments] = sourceFiles(name, dir);
  const doc = readYaml(root) as OpenApiDoc;
  doc.paths ??= {};
  doc.components ??= {};
  const owners = new Map(Object.keys(doc.paths).map((p) => [p, root]));
  for (const file of fragments) mergeFragment(doc, readYaml(file), file, owners);
  return doc;
}
