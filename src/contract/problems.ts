// Words an ajv error the way the real server words a bad parameter: one problem, named by its
// path (`subscribers[0]`, `target_users["user_ids"]`), in the server's templates.
import type { ErrorObject } from 'ajv';

const typeWords: Record<string, string> = {
  integer: 'is not an integer',
  number: 'is not a number',
  boolean: 'is not a boolean',
  string: 'is not a string',
  array: 'is not a list',
  object: 'is not a dict',
  null: 'is not null',
};

/** `name` followed by the JSON pointer's steps: indices as [0], keys as ["key"]. */
function pathName(name: string, instancePath: string): string {
  if (!instancePath) return name;
  return (
    name +
    instancePath
      .split('/')
      .slice(1)
      .map((step) => {
        const s = step.replace(/~1/g, '/').replace(/~0/g, '~');
        return /^\d+$/.test(s) ? `[${s}]` : `["${s}"]`;
      })
      .join('')
  );
}

/** Picks the error to report: a failed oneOf/anyOf is reported as itself, not by its first branch. */
function pick(errors: ErrorObject[]): ErrorObject {
  const union = errors.find(
    (e) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && errors[0].instancePath.startsWith(e.instancePath),
  );
  return union ?? errors[0];
}

export function describeProblem(name: string, errors: ErrorObject[]): string {
  const e = pick(errors);
  const where = pathName(name, e.instancePath);
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'type': {
      const t = Array.isArray(p.type)
        ? (p.type.find((x: string) => x !== 'null') ?? p.type[0])
        : String(p.type).split(',')[0];
      return `${where} ${typeWords[t] ?? `is not ${t}`}`;
    }
    case 'maxLength':
      return `${where} is too long (limit: ${p.limit} characters)`;
    case 'minLength':
      return p.limit === 1 ? `${where} cannot be empty` : `${where} is too short (minimum: ${p.limit} characters)`;
    case 'maxItems':
      return `${where} is too long (limit: ${p.limit} items)`;
    case 'minItems':
      return `${where} is too short (minimum: ${p.limit} items)`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${where} is too small`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${where} is too large`;
    case 'required':
      return `${p.missingProperty} key is missing from ${where}`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return `Argument "${p.additionalProperty ?? p.unevaluatedProperty}" in ${where} is unexpected`;
    default:
      return `Invalid ${where}`;
  }
}
