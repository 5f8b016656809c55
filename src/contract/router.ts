// Finds the operation for a method and path. Static paths are one map lookup; paths with
// parameters are regular expressions compiled from the description (integer parameters match
// digits only, so /users/me never matches /users/{user_id}). Static paths win over templated ones.
// A path is tried only against the templates that can match its first segment, in the
// description's order (trying all 48 in turn cost up to 6 µs for the last ones).
import type { Method, Operation } from './operations.js';

export type RouteMatch =
  | { kind: 'found'; op: Operation; pathValues: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'not-found' };

interface Template {
  /** The description's path, e.g. /users/{user_id}/channels. */
  path: string;
  regex: RegExp;
  names: string[];
  byMethod: Map<string, Operation>;
}

function paramPattern(op: Operation, name: string): string {
  const p = op.params.find((x) => x.in === 'path' && x.name === name);
  if (p?.schema?.['x-matches-slashes']) return '(.+)'; // a file's path below /user_uploads/
  return p?.primitive === 'integer' ? '(\\d+)' : '([^/]+)';
}

export class Router {
  private readonly statics = new Map<string, Map<string, Operation>>();
  private readonly templates: Template[] = [];
  /**
   * The templates a path may match, by its first segment: those whose first segment is that
   * literal, and those whose first segment is a parameter, in the order of `templates`. A first
   * segment no template names gets `paramFirst` alone.
   */
  private readonly byFirstSegment = new Map<string, Template[]>();
  private readonly paramFirst: Template[] = [];
  /** Operations served at the site root, outside the prefix (x-site-root: downloads of uploads). */
  private readonly siteRoot: Template[] = [];
  /** The first segments of those paths (e.g. /user_uploads/), for the dispatcher. */
  readonly siteRootPrefixes: string[] = [];

  constructor(
    operations: Operation[],
    private readonly prefix: string,
  ) {
    const templates = new Map<string, Template>();
    for (const op of operations) {
      if (!op.pathParamNames.length && !op.siteRoot) {
        const byMethod = this.statics.get(op.path) ?? new Map();
        Router.add(byMethod, op);
        this.statics.set(op.path, byMethod);
        continue;
      }
      // An API path and a site-root path may be the same template (/user_uploads/{realm_id_str}/{filename}).
      const mapKey = `${op.siteRoot ? 'root:' : ''}${op.path}`;
      let t = templates.get(mapKey);
      if (!t) {
        const source = op.path
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\\?\{([^}]+)\\?\}/g, (_, n) => paramPattern(op, n));
        t = { path: op.path, regex: new RegExp(`^${source}$`), names: op.pathParamNames, byMethod: new Map() };
        templates.set(mapKey, t);
        if (op.siteRoot) {
          this.siteRoot.push(t);
          const first = op.path.slice(0, op.path.indexOf('/', 1) + 1);
          if (!this.siteRootPrefixes.includes(first)) this.siteRootPrefixes.push(first);
        } else this.templates.push(t);
      }
      Router.add(t.byMethod, op);
    }
    const firsts = this.templates.map((t) => firstSegment(t.path));
    this.templates.forEach((t, i) => {
      if (firsts[i].includes('{')) this.paramFirst.push(t);
    });
    for (const first of new Set(firsts.filter((f) => !f.includes('{'))))
      this.byFirstSegment.set(
        first,
        this.templates.filter((_, i) => firsts[i] === first || firsts[i].includes('{')),
      );
  }

  /** Two operations answering the same method at the same path would leave one unreachable. */
  private static add(byMethod: Map<string, Operation>, op: Operation): void {
    const other = byMethod.get(op.method);
    if (other)
      throw new Error(
        `${other.id} and ${op.id} both answer ${op.method.toUpperCase()} ${op.siteRoot ? '' : '(API) '}${op.path}`,
      );
    byMethod.set(op.method, op);
  }

  /**
   * `path` is the request path, with the prefix (e.g. /api/v1/messages). Operations that do not
   * exist at `level` are invisible: the path answers as the real server's unknown routes do.
   */
  match(method: string, path: string, level = Number.MAX_SAFE_INTEGER): RouteMatch {
    if (!path.startsWith(this.prefix)) return this.matchTemplates(this.siteRoot, method.toLowerCase(), path, level);
    let rest = path.slice(this.prefix.length);
    if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1);
    const m = method.toLowerCase() as Method;
    const statics = this.statics.get(rest);
    if (statics) {
      const found = this.pick(statics, m, {}, level);
      if (found) return found;
    }
    return this.matchTemplates(this.byFirstSegment.get(firstSegment(rest)) ?? this.paramFirst, m, rest, level);
  }

  private matchTemplates(templates: Template[], m: string, rest: string, level: number): RouteMatch {
    for (const t of templates) {
      const hit = t.regex.exec(rest);
      if (!hit) continue;
      const values: Record<string, string> = {};
      t.names.forEach((n, i) => {
        values[n] = safeDecode(hit[i + 1]);
      });
      const found = this.pick(t.byMethod, m, values, level);
      if (found) return found;
    }
    return { kind: 'not-found' };
  }

  private pick(
    byMethod: Map<string, Operation>,
    m: string,
    pathValues: Record<string, string>,
    level: number,
  ): RouteMatch | null {
    // The usual case first, without building the list of what the path allows.
    const direct = byMethod.get(m);
    if (direct && direct.addedAt <= level && level < direct.removedAt) return { kind: 'found', op: direct, pathValues };
    const available = [...byMethod.entries()].filter(([, op]) => op.addedAt <= level && level < op.removedAt);
    if (!available.length) return null;
    const op =
      available.find(([method]) => method === m)?.[1] ??
      (m === 'head' ? available.find(([method]) => method === 'get')?.[1] : undefined);
    if (op) return { kind: 'found', op, pathValues };
    return { kind: 'wrong-method', allowed: available.map(([method]) => method.toUpperCase()).sort() };
  }
}

/** The first segment of a path as written (/users/5/channels: users), not decoded. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
