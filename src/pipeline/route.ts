// Stage "route": the level the request is answered at and the operation it names.
import type { Request } from 'express';
import type { Contract } from '../contract/contract.js';
import { ApiError, methodNotAllowed, notFound } from '../errors.js';
import { FEATURE_LEVEL_HEADER } from '../http/mock-headers.js';
import type { Call } from './call.js';

/** The level to answer at: the request's header, else its world's setting, else the server's. */
function requestLevel(req: Request, worldLevel: number | null, serverLevel: number): number {
  const header = req.headers[FEATURE_LEVEL_HEADER];
  if (header === undefined) return worldLevel ?? serverLevel;
  const text = Array.isArray(header) ? header[header.length - 1] : header;
  if (!/^\d{1,4}$/.test(text.trim())) throw new ApiError('BAD_REQUEST', `Invalid X-Mock-Feature-Level: ${text}`);
  return Number(text);
}

export function routeStage(contract: Contract, serverLevel: number) {
  return function route(call: Call): void {
    const { req, world, ex } = call;
    ex.level = call.level = requestLevel(req, world.featureLevel, serverLevel);
    const match = contract.router.match(req.method, req.baseUrl + req.path, call.level);
    if (match.kind === 'not-found') throw notFound();
    if (match.kind === 'wrong-method') throw methodNotAllowed(match.allowed);
    call.op = ex.operation = match.op;
    call.pathValues = match.pathValues;
  };
}
