// Types of prerequisites.mjs for the TypeScript tests that import it.
export type Found = { path: string } | { missing: string };
export interface Prerequisite {
  name: string;
  find: (env?: NodeJS.ProcessEnv) => Found;
  packages: string[];
  override: string;
}
export declare function which(name: string, env?: NodeJS.ProcessEnv): string | null;
export declare function findChromium(env?: NodeJS.ProcessEnv): Found;
export declare function findPython(env?: NodeJS.ProcessEnv): Found;
export declare const PREREQUISITES: Prerequisite[];
export declare function plan(
  missing: Array<{ name: string; packages: string[]; override: string; missing: string }>,
  host: { isRoot: boolean; aptGet: string | null; env: Record<string, string | undefined> },
): { ok: true } | { install: string[]; aptGet: string } | { error: string };
