// The checks a linkifier's pattern and URL template must pass, with the real server's wording.
// Refusals carry `errors` by field as the server's model validation reports them.
import { ApiError } from '../../errors.js';

const refused = (field: string, msg: string) => new ApiError('BAD_REQUEST', msg, 400, { errors: { [field]: [msg] } });

/**
 * Why the pattern is not a usable regular expression, or null. The one place patterns are
 * judged: it is to be replaced by the linear-time engine's check (render/linkifiers.ts), which
 * also words the detail as the real server's engine does.
 */
function patternProblem(pattern: string): string | null {
  const source = pattern.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  try {
    new RegExp(source, 'u');
    return null;
  } catch (e) {
    return (e as Error).message.replace(/^Invalid regular expression: /, '');
  }
}

const namedGroups = (pattern: string) => new Set([...pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]));

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

export function checkLinkifier(pattern: string, urlTemplate: string): void {
  const problem = patternProblem(pattern);
  if (problem !== null) throw refused('pattern', `Bad regular expression: ${problem}`);
  const variables = templateVariables(urlTemplate);
  if (variables === null) throw refused('url_template', 'Invalid URL template.');
  const groups = namedGroups(pattern);
  for (const name of variables) {
    if (!groups.has(name)) throw refused('__all__', `Group '${name}' in URL template is not present in linkifier pattern.`);
  }
  for (const name of groups) {
    if (!variables.has(name)) throw refused('__all__', `Group '${name}' in linkifier pattern is not present in URL template.`);
  }
}
