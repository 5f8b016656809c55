// An upstream's answer in proxy mode, as the HTTP edge writes it: the bytes as they came, with
// their differences from the description. The proxy stage makes one; respond.ts writes it.

export interface Relay {
  bytes: Buffer;
  headers: Record<string, string>;
  problems: Array<{ path: string; message: string }>;
  /** The feature level it was checked at (the upstream's). */
  level: number;
  /** Whether the bytes are JSON; if not, the journal keeps the answer's description (the body) instead. */
  json: boolean;
}
