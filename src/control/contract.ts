// The control API's description (openapi/control.yaml), compiled once per process: it never
// changes while running, so every server of the process may read the same one.
import { compileContract, type Contract } from '../contract/contract.js';

let controlContract: Contract | null = null;
export const sharedControlContract = () => (controlContract ??= compileContract('control'));

/** A body parameter's schema in the control description (its limits are read from there). */
export function controlParamSchema(operationId: string, name: string): any {
  const schema = sharedControlContract().byId.get(operationId)?.paramsByName.get(name)?.schema;
  if (!schema) throw new Error(`openapi/control.yaml: ${operationId} has no parameter ${name}`);
  return schema;
}
