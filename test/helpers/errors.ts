// The error envelope as tests expect it.
import { expect } from 'vitest';

/** An error body, for toEqual: result, code, msg and any extra fields. */
export const error = (code: string, msg: string, extra: Record<string, unknown> = {}) => ({
  result: 'error',
  code,
  msg,
  ...extra,
});

/** Expects an error answer with this status, code and message. */
export function expectError(res: { status: number; body: any }, status: number, code: string, msg: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ result: 'error', code, msg });
}
