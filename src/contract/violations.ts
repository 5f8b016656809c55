// A response that breaks the description, as the server reports it to its violation observers
// (MockServer.onViolation; the test suite's contract guard is one).

export interface Violation {
  operation: string;
  status: number;
  body: unknown;
  problems: Array<{ path: string; message: string }>;
}
