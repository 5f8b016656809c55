// Why the server could not listen, in one line a user can act on.
export function listenFailure(err: unknown, port: number, host: string): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE')
    return `port ${port} on ${host} is already in use (choose another with --port, or --port 0 for a free one)`;
  if (code === 'EACCES') return `no permission to listen on port ${port} of ${host} (ports below 1024 need privileges)`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${host}: no such address on this machine`;
  return `cannot start: ${(err as Error)?.message ?? err}`;
}
