// GET /__mock/outbox/stream: a world's outbox as server-sent events, one `item` event per email
// or push notification as it is recorded (the inspector's Outbox tab). A reconnecting client
// resumes after the Last-Event-ID header (or `since_id`) and first gets what it missed.
import type { Request, Response } from 'express';
import type { World } from '../world.js';
import { outboxOf, type OutboxItem } from '../domain/outbox/outbox.js';
import { SANDBOX_HEADER } from '../http/mock-headers.js';

const HEARTBEAT_MS = 15_000;
const REPLAY_LIMIT = 500;
/** A reader that lets this much pile up unread is dropped (it catches up through Last-Event-ID). */
const MAX_UNSENT_BYTES = 1024 * 1024;

const toInt = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
};

/** Open streams, so that a closing server can end them (it waits for open requests). */
export class OutboxStreams {
  private readonly open = new Set<() => void>();

  constructor(private readonly worldFor: (sandbox: string) => World) {}

  handler() {
    return (req: Request, res: Response): void => {
      const named =
        typeof req.query.sandbox === 'string' && req.query.sandbox ? req.query.sandbox : req.headers[SANDBOX_HEADER];
      let world: World;
      try {
        world = this.worldFor(typeof named === 'string' && named ? named : 'default');
      } catch (err) {
        res.status(400).json({ result: 'error', msg: (err as Error).message, code: 'BAD_REQUEST' });
        return;
      }
      const outbox = outboxOf(world.store);
      const since = toInt(req.headers['last-event-id']) ?? toInt(req.query.since_id);
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();
      let live = false;
      const send = (item: OutboxItem) => {
        if (live && res.writableLength > MAX_UNSENT_BYTES) {
          end();
          res.destroy();
          return;
        }
        res.write(`id: ${item.id}\nevent: item\ndata: ${JSON.stringify(item)}\n\n`);
      };
      res.write('retry: 2000\n\n');
      if (since !== undefined)
        for (const item of outbox.query({ since_id: since, limit: REPLAY_LIMIT }).items.reverse()) send(item);
      res.write('event: ready\ndata: {}\n\n');
      live = true;
      const unsubscribe = outbox.onRecord(send);
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      const end = () => {
        unsubscribe();
        clearInterval(heartbeat);
        this.open.delete(end);
        if (!res.writableEnded) res.end();
      };
      this.open.add(end);
      req.on('close', end);
    };
  }

  endAll(): void {
    for (const end of [...this.open]) end();
  }
}
