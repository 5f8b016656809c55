// Finds and loads scenario files: scenarios/NAME.json, NAME.ts or NAME.js (the file's basename
// is the scenario's name), or any file a user names on the command line. TypeScript files are
// loaded through tsx, so a scenario needs no build step.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { badRequest } from '../../errors.js';
import { packagePath } from '../../package-root.js';
import type { Scenario } from './types.js';
import { checkScenario } from './check.js';
import { isRecording, recordingScenario } from './recorder.js';

const EXTENSIONS = ['.json', '.jsonl', '.ts', '.mts', '.js', '.mjs', '.cjs'];

// tsx is imported on first use: most runs load JSON scenarios only. (The single executable, which
// cannot run tsx, answers this import with its own CommonJS loader: src/binary/main.ts.)
async function importModule(file: string): Promise<any> {
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(pathToFileURL(file).href, import.meta.url);
}

export const NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The scenarios/ folder shipped with the package. */
const scenariosDir = (): string => packagePath('scenarios');

export interface AvailableScenario {
  name: string;
  description: string;
  file: string;
}

const cache = new Map<string, { mtimeMs: number; scenario: Scenario }>();

async function loadFile(file: string): Promise<Scenario> {
  const mtimeMs = statSync(file).mtimeMs;
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.scenario;
  let scenario: Scenario;
  try {
    if (file.endsWith('.json') || file.endsWith('.jsonl')) {
      const text = readFileSync(file, 'utf8');
      // A --record recording (JSON Lines) replays as the scenario its exchanges make.
      scenario = isRecording(text)
        ? recordingScenario(text, path.basename(file).replace(/\.[^.]+$/, ''))
        : JSON.parse(text);
    } else {
      const mod = await importModule(file);
      scenario = mod.default?.default ?? mod.default ?? mod.scenario;
    }
  } catch (err) {
    throw badRequest(`Scenario file ${file} cannot be loaded: ${(err as Error).message}`);
  }
  if (!scenario || typeof scenario !== 'object') throw badRequest(`Scenario file ${file} has no default export`);
  const name = path.basename(file).replace(/\.[^.]+$/, '');
  scenario = { ...scenario, name: scenario.name ?? name };
  checkScenario(scenario, file);
  cache.set(file, { mtimeMs, scenario });
  return scenario;
}

/** A scenario of the scenarios/ folder, by name (never a path: names cannot leave the folder). */
export async function loadScenarioByName(name: string, dir = scenariosDir()): Promise<Scenario> {
  if (!NAME_PATTERN.test(name)) throw badRequest(`Invalid scenario name '${name}'`);
  for (const ext of EXTENSIONS) {
    const file = path.join(dir, name + ext);
    if (existsSync(file)) return loadFile(file);
  }
  throw badRequest(`No scenario named '${name}'`);
}

/** A name of the scenarios/ folder, or a path to a file anywhere (command line only). */
export async function loadScenario(
  nameOrFile: string,
  dir = scenariosDir(),
): Promise<{ scenario: Scenario; source: string }> {
  if (NAME_PATTERN.test(nameOrFile) && !existsSync(nameOrFile)) {
    return { scenario: await loadScenarioByName(nameOrFile, dir), source: `scenarios/${nameOrFile}` };
  }
  const file = path.resolve(nameOrFile);
  if (!existsSync(file)) throw badRequest(`No scenario file ${file}`);
  return { scenario: await loadFile(file), source: file };
}

export async function listScenarios(dir = scenariosDir()): Promise<AvailableScenario[]> {
  let files: string[] = [];
  try {
    files = readdirSync(dir)
      .filter((f) => EXTENSIONS.includes(path.extname(f)))
      .sort();
  } catch {
    return [];
  }
  const out: AvailableScenario[] = [];
  for (const f of files) {
    const name = f.replace(/\.[^.]+$/, '');
    try {
      const s = await loadFile(path.join(dir, f));
      out.push({ name, description: s.description ?? '', file: `scenarios/${f}` });
    } catch {
      out.push({ name, description: '(cannot be loaded)', file: `scenarios/${f}` });
    }
  }
  return out;
}
