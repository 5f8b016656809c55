// Stage "shape": a view's data as the request's feature level shows it, in the success envelope.
import { supportsAt } from '../contract/behaviours.js';
import { applyShape } from '../contract/shape.js';
import { successBody } from '../http/envelope.js';
import { FileResult, type ViewResult } from '../domain/context.js';
import type { Call } from './call.js';

export function shapeStage(call: Call): void {
  const { op, level } = call;
  // A file's bytes go out as they are (the respond stage writes them); no envelope.
  if (call.data instanceof FileResult) {
    call.answer = { status: 200, body: {}, file: call.data };
    return;
  }
  const json = call.data as Exclude<ViewResult, FileResult>;
  const data = op.shape && json ? (applyShape(json, op.shape, level) as typeof json) : json;
  // Settings endpoints listed unsupported parameters from FL 78, every endpoint from FL 167.
  const ignoredFrom = op.spec['x-ignored-parameters-from'];
  const withIgnored =
    typeof ignoredFrom === 'number' ? level >= ignoredFrom : supportsAt(level, 'ignored_parameters_unsupported');
  call.answer = { status: 200, body: successBody(data, call.ignored, withIgnored) };
}
