// The table of behaviour changes by feature level (openapi/behaviours.yaml), read once (from the
// build's JSON copy while it is current: parsing the YAML took a twentieth of the start-up).
import { loadDescription } from './load.js';

export interface Behaviour {
  level: number;
  /**
   * Levels below `level` that have the current behaviour too: a maintenance release that took
   * the change back before the development branch made it (`[first, last]` ranges, inclusive).
   */
  backported?: Array<[number, number]>;
  description: string;
}

let table: Record<string, Behaviour> | null = null;

export function behaviours(): Record<string, Behaviour> {
  if (!table) {
    table = (loadDescription('behaviours') as unknown as { behaviours: Record<string, Behaviour> }).behaviours;
  }
  return table;
}

/** Whether a server at `level` behaves the current way for `key`. Unknown keys are a bug. */
export function supportsAt(level: number, key: string): boolean {
  const row = behaviours()[key];
  if (!row) throw new Error(`no behaviour ${key} in openapi/behaviours.yaml`);
  return level >= row.level || (row.backported ?? []).some(([first, last]) => first <= level && level <= last);
}
