// --push-target URL: each push notification the outbox records is also POSTed there as JSON
// (the OutboxItem, with the sandbox in the X-Mock-Sandbox header), so that a device simulator or
// a test harness receives it as the push bouncer's client would. Safe by default: the target
// must be a loopback address unless its host is allowed by name (--allow-push-target-host);
// deliveries are bounded in number waiting, in concurrency and in time, and a failure is
// logged, never retried (the outbox keeps every notification anyway).
import type { OutboxItem } from '../domain/outbox/outbox.js';

const MAX_WAITING = 1000;
const CONCURRENCY = 4;
const TIMEOUT_MS = 5000;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The checked target, or an error naming what is wrong. */
export function checkPushTarget(url: string, allowedHosts: readonly string[] = []): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Error(`--push-target: not a URL: ${url}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new Error(`--push-target: only http and https URLs (${url})`);
  if (!LOOPBACK.test(target.hostname) && !allowedHosts.includes(target.hostname.toLowerCase())) {
    throw new Error(
      `--push-target: ${target.hostname} is not a loopback address; allow it with --allow-push-target-host ${target.hostname}`,
    );
  }
  return target;
}

export class PushForwarder {
  private readonly waiting: Array<{ sandbox: string; item: OutboxItem }> = [];
  private running = 0;
  private dropped = 0;

  constructor(
    private readonly target: URL,
    private readonly log: (line: string) => void,
  ) {}

  /** Queues a recorded push notification for delivery (emails are not forwarded). */
  offer(sandbox: string, item: OutboxItem): void {
    if (item.kind !== 'push') return;
    if (this.waiting.length >= MAX_WAITING) {
      if (this.dropped++ === 0)
        this.log(
          `teamchat-mock: --push-target ${this.target.origin} does not keep up; notifications past ${MAX_WAITING} waiting are not forwarded`,
        );
      return;
    }
    this.waiting.push({ sandbox, item });
    this.pump();
  }

  private pump(): void {
    while (this.running < CONCURRENCY && this.waiting.length) {
      const next = this.waiting.shift()!;
      this.running++;
      void this.deliver(next.sandbox, next.item).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async deliver(sandbox: string, item: OutboxItem): Promise<void> {
    try {
      const res = await fetch(this.target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mock-sandbox': sandbox },
        body: JSON.stringify(item),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'manual',
      });
      // The answer is not read: a target that answers without end costs nothing but the socket.
      await res.body?.cancel().catch(() => undefined);
      if (!res.ok) this.log(`teamchat-mock: --push-target answered ${res.status} to push notification ${item.id}`);
    } catch (err) {
      this.log(`teamchat-mock: --push-target ${this.target.origin} unreachable: ${(err as Error).message}`);
    }
  }
}
