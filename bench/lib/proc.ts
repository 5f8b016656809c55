// Servers under test run as child processes, never in the driver (which generates the load).
// A server is ready when its stdout shows "listening on http://HOST:PORT".
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Child {
  label: string;
  url: string;
  proc: ChildProcess;
  /** Milliseconds from spawn to the "listening" line. */
  readyMs: number;
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();
// Never leave a server behind, whatever happens to the driver.
process.on('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  pattern?: RegExp;
}

export function spawnServer(
  label: string,
  command: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<Child> {
  const pattern = options.pattern ?? /listening on (http:\/\/[^\s)]+)/;
  const started = performance.now();
  const proc = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => {
      running.delete(proc);
      resolve(code);
    }),
  );
  let output = '';
  return new Promise<Child>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${label}: not listening after ${options.timeoutMs ?? 60_000} ms\n${output.slice(-2000)}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      // Keep draining (a server that logs every request must never block on a full pipe),
      // but only the start-up output is kept.
      if (ready) return;
      output += chunk.toString();
      const m = pattern.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
      if (!m) return;
      ready = true;
      clearTimeout(timer);
      const readyMs = performance.now() - started;
      resolve({
        label,
        url: m[1].replace(/\/$/, ''),
        proc,
        readyMs,
        stop: async () => {
          if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
          proc.kill('SIGTERM');
          const kill = setTimeout(() => proc.kill('SIGKILL'), 20_000);
          const code = await exited;
          clearTimeout(kill);
          return code;
        },
      });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    void exited.then((code) => {
      if (!ready) {
        clearTimeout(timer);
        reject(new Error(`${label}: exited (${code}) before listening\n${output.slice(-2000)}`));
      }
    });
  });
}

/** Resident set size of a process in MB (Linux), or null where /proc is not available. */
export function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux), or null. */
export function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: the unit of /proc/PID/stat times on Linux. */
const CLOCK_TICKS = 100;

/** A free TCP port on 127.0.0.1 (for servers that cannot be told to pick one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
