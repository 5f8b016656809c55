// A POST to a bot's URL and its outcome, as post.ts and http1.ts take and give them.
export type PostOutcome =
  | { kind: 'answer'; status: number; body: Buffer; truncated: boolean }
  | { kind: 'timeout' }
  | { kind: 'connection-error'; detail: string }
  /** What `requests` raises before connecting: its exception type and text. */
  | { kind: 'invalid-url'; type: string; text: string };

export interface PostRequest {
  url: string;
  body: string;
  contentType: string;
  userAgent: string;
  timeoutMs: number;
  maxAnswerBytes: number;
}
