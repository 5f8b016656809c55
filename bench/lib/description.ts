// The description as one document, for Prism: api.yaml with every openapi/paths/ fragment merged
// in by the server's own loader (src/contract/load.ts), written to a temporary JSON file.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadDescription } from '../../src/contract/load.js';

export function writeMergedDescription(dir: string): string {
  const file = path.join(dir, 'openapi-merged.json');
  writeFileSync(file, JSON.stringify(loadDescription('api')));
  return file;
}
