// Validators compiled by the build: ajv's standalone code of the response validators a client's
// first calls need, kept in the description's bundle (dist/openapi-bundle/api.json) beside the
// document they were compiled from. Making the ajv instance and compiling the first answer's
// validator took a fifth of the time to the first answer; evaluating the kept code takes well
// under a millisecond. The code is what ajv compiles at run time, so every check is the same.
// A description read from the YAML sources (changed since the build) has none, and is compiled as usual.
// The bundle holds code, then: it is trusted as the rest of dist/ is (the single executable's
// unpacked copy only from a private folder whose files match the build's hashes, binary/unpack.ts).
import { addToBundle, loadDescription } from './load.js';
import { Contract } from './contract.js';

/**
 * The validators kept (by the name Contract gives them: operation ID and status): what clients
 * call before anything else (the server's settings, then logging in and the user's own record).
 */
export const FIRST_CALLS = [
  'get-server-settings 200',
  'fetch-api-key 200',
  'dev-fetch-api-key 200',
  'get-own-user 200',
  'get-events 200',
  'get-subscriptions 200',
];

/**
 * Compiles the kept validators of the bundled API description and adds them to its bundle; the
 * names of those kept (a validator whose code would need a module at run time is left out).
 * @public (scripts/build.mjs imports it from dist/, where knip cannot follow)
 */
export function prebuildValidators(): string[] {
  const contract = new Contract(loadDescription('api'));
  const validators: Record<string, string> = {};
  for (const name of FIRST_CALLS) {
    const code = contract.standaloneCode(name);
    if (code !== null) validators[name] = code;
  }
  addToBundle('api', validators);
  return Object.keys(validators);
}
