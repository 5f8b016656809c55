// The table of behaviour changes by feature level (openapi/behaviours.yaml), read once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { openapiDir } from './load.js';

export interface Behaviour {
  level: number;
  description: string;
}

let table: Record<string, Behaviour> | null = null;

export function behaviours(): Record<string, Behaviour> {
  if (!table) {
    const doc = YAML.parse(readFileSync(path.join(openapiDir(), 'behaviours.yaml'), 'utf8'));
    table = doc.behaviours as Record<string, Behaviour>;
  }
  return table;
}

/** Whether a server at `level` behaves the current way for `key`. Unknown keys are a bug. */
export function supportsAt(level: number, key: string): boolean {
  const row = behaviours()[key];
  if (!row) throw new Error(`no behaviour ${key} in openapi/behaviours.yaml`);
  return level >= row.level;
}
