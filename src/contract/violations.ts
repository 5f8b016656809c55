// Every response that breaks the description is announced here; the test suite listens and fails
// the test that caused it.
import { EventEmitter } from 'node:events';

export interface Violation {
  operation: string;
  status: number;
  body: unknown;
  problems: Array<{ path: string; message: string }>;
}

export const contractViolations = new EventEmitter();
contractViolations.setMaxListeners(0);
