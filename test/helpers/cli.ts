// Runs the command line as a user does: a child process, its output read as it comes. By default
// the TypeScript sources through tsx (no build needed); the packaging tests pass another command.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_CLI = [process.execPath, '--import', 'tsx', path.join(ROOT, 'src/cli.ts')];

export interface RunningCli {
  /** The launched process, leader of its own process group (see startCli). */
  child: ChildProcess;
  base: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
  stop(): Promise<void>;
}

/** Starts the CLI on a free port and resolves once it has printed its address. */
export function startCli(
  args: string[],
  options: SpawnOptions & { command?: string[]; timeoutMs?: number } = {},
): Promise<RunningCli> {
  const [command, ...pre] = options.command ?? SOURCE_CLI;
  // A process group of its own: a launcher (npx) runs the mock as its child and does not pass a
  // signal on, so stopping it stops the whole group (an `npx teamchat-mock` of the packaging test
  // was left running after the suite).
  const child = spawn(command, [...pre, '--port', '0', ...args], {
    cwd: ROOT,
    ...options,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone already
    }
  };
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signalGroup('SIGKILL');
      reject(new Error(`no address after ${options.timeoutMs ?? 30000} ms: ${out}${err}`));
    }, options.timeoutMs ?? 30000);
    const onData = () => {
      const m = /listening on (https?:\/\/[^\s)]+)|"url":"(https?:\/\/[^"]+)"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        child,
        base: m[1] ?? m[2],
        stdout: () => out,
        stop: async () => {
          const running = child.exitCode === null && child.signalCode === null;
          signalGroup('SIGTERM');
          if (running) await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${out}${err}`));
    });
  });
}

/** Runs the CLI expecting it to stop: its exit code and output. */
export function runCliToEnd(
  args: string[],
  options: SpawnOptions & { command?: string[] } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, ...pre] = options.command ?? SOURCE_CLI;
  const child = spawn(command, [...pre, ...args], { cwd: ROOT, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => {
    stdout += d;
  });
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
