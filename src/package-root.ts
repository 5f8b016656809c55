// Where the files the server reads at run time live: openapi/, fixtures/, scenarios/, src/ui/ and
// dist/openapi-bundle/. From a checkout or an installed package that is the folder above src/ (or
// dist/src/); the single executable (src/binary/main.ts) unpacks its embedded copy and runs the
// bundled command line as if from that folder's dist/src/. Every finder asks here, so that no module guesses paths from its own location.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

/** The package root: the nearest folder above this module that holds openapi/api.yaml. */
function packageRoot(): string {
  if (root) return root;
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/ in a checkout, dist/src/ when compiled.
  for (const up of ['..', '../..']) {
    const dir = path.resolve(here, up);
    if (existsSync(path.join(dir, 'openapi', 'api.yaml'))) return (root = dir);
  }
  throw new Error(`the package's openapi/api.yaml was not found above ${here}`);
}

/** A path inside the package root. */
export const packagePath = (...parts: string[]): string => path.join(packageRoot(), ...parts);
