// The checks a linkifier's pattern and URL template must pass, with the real server's wording.
// The real server validates the model as Django does (full_clean): the fields first (blank
// ones, the template's syntax), then the pattern and the groups against the template's
// variables, then uniqueness of the pattern; the answer's msg is the first problem, and
// `errors` lists every problem by field (`__all__` for those not of one field).
import { ApiError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { checkLinkifierPattern } from '../render/linkifiers.js';

const BLANK = 'This field cannot be blank.';

/** The variables of an RFC 6570 template, or null when it is not one. */
export function templateVariables(template: string): Set<string> | null {
  const names = new Set<string>();
  const outside = template.replace(/\{([+#./;?&]?)([^{}]*)\}/g, (_all, _op: string, list: string) => {
    for (const spec of list.split(',')) {
      const name = spec.replace(/(\*|:\d+)$/, '');
      if (!/^[A-Za-z0-9_.%]+$/.test(name)) names.add('\u0000');
      names.add(name);
    }
    return '';
  });
  if (/[{}]/.test(outside) || names.has('\u0000')) return null;
  return names;
}

/** The pattern's named groups, or the refusal's wording. */
function patternGroups(pattern: string): Set<string> | string {
  try {
    return new Set(Object.keys(checkLinkifierPattern(pattern).namedGroups()));
  } catch (err) {
    return (err as Error).message;
  }
}

/** The model's own check: the pattern, then template variables missing from it, then its groups missing from the template (the first name in order). */
function modelProblem(pattern: string, urlTemplate: string): string | null {
  const groups = patternGroups(pattern);
  if (typeof groups === 'string') return groups;
  const variables = templateVariables(urlTemplate);
  if (variables === null) return null; // the field check reports the template
  const first = (names: string[]) => names.sort()[0];
  const notInPattern = first([...variables].filter((v) => !groups.has(v)));
  if (notInPattern !== undefined) return `Group '${notInPattern}' in URL template is not present in linkifier pattern.`;
  const notInTemplate = first([...groups].filter((g) => !variables.has(g)));
  if (notInTemplate !== undefined)
    return `Group '${notInTemplate}' in linkifier pattern is not present in URL template.`;
  return null;
}

/** Refuses the linkifier (`exceptId`: the one being changed) as the real server's validation does. */
export function checkLinkifier(store: Store, pattern: string, urlTemplate: string, exceptId?: number): void {
  const errors: Record<string, string[]> = {};
  const add = (field: string, msg: string) => {
    (errors[field] ??= []).push(msg);
  };
  if (pattern === '') add('pattern', BLANK);
  if (urlTemplate === '') add('url_template', BLANK);
  else if (templateVariables(urlTemplate) === null) add('url_template', 'Invalid URL template.');
  const problem = modelProblem(pattern, urlTemplate);
  if (problem !== null) add('__all__', problem);
  if (!errors.pattern && store.linkifiers.find((l) => l.pattern === pattern && l.id !== exceptId)) {
    add('__all__', 'Realm filter with this Realm and Pattern already exists.');
  }
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw new ApiError('BAD_REQUEST', first, 400, { errors });
}
