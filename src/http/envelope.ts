// The response envelope, written here and nowhere else.
import { ApiError } from '../errors.js';

export type Body = Record<string, unknown>;

export function successBody(data: Body | void, ignored: string[], withIgnored: boolean): Body {
  const body: Body = { result: 'success', msg: '', ...(data ?? {}) };
  if (withIgnored && ignored.length) body.ignored_parameters_unsupported = ignored;
  return body;
}

export function errorBody(err: ApiError): Body {
  if (err.code === null) return { result: 'error', msg: err.message, ...err.extra };
  return { result: 'error', msg: err.message, code: err.code, ...err.extra };
}
