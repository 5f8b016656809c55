// GET /__mock/journal/stream: the journal as server-sent events, one `entry` event per request as
// it is recorded (the inspector's live view). Filters: `sandbox`; a reconnecting client resumes
// after the Last-Event-ID header (or `since_id`) and first gets what it missed.
import type { Request, Response } from 'express';
import type { Journal, JournalEntry } from './journal.js';

/** A comment line now and then, so that proxies and idle timers keep the connection open. */
const HEARTBEAT_MS = 15_000;
/** At most this many missed entries are replayed on reconnection. */
const REPLAY_LIMIT = 500;

/**
 * A reader that lets this much pile up unread (a paused tab, a stalled proxy) is dropped: the
 * stream is a live view, and a reconnecting reader catches up through Last-Event-ID anyway.
 */
const MAX_UNSENT_BYTES = 1024 * 1024;

/** Open streams per journal, so that a closing server can end them (it waits for open requests). */
const openStreams = new WeakMap<Journal, Set<() => void>>();

const toInt = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
};

export function journalStream(journal: Journal) {
  return function stream(req: Request, res: Response): void {
    const sandbox = typeof req.query.sandbox === 'string' && req.query.sandbox ? req.query.sandbox : undefined;
    const since = toInt(req.headers['last-event-id']) ?? toInt(req.query.since_id);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    let live = false; // the replay of missed entries is bounded by REPLAY_LIMIT instead
    const send = (entry: JournalEntry) => {
      if (sandbox && entry.sandbox !== sandbox) return;
      if (live && res.writableLength > MAX_UNSENT_BYTES) {
        drop();
        return;
      }
      res.write(`id: ${entry.id}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`);
    };
    res.write('retry: 2000\n\n');
    if (since !== undefined) {
      for (const e of journal.query({ since_id: since, sandbox, limit: REPLAY_LIMIT }).entries.reverse()) send(e);
    }
    // Tells the page the stream is live (EventSource's open event fires on headers alone).
    res.write(`event: ready\ndata: {}\n\n`);

    live = true;
    const unsubscribe = journal.onRecord((entry) => {
      // Called from inside a response being sent: a broken stream must not disturb it.
      try {
        send(entry);
      } catch {
        end();
      }
    });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    let streams = openStreams.get(journal);
    if (!streams) openStreams.set(journal, (streams = new Set()));
    const end = () => {
      unsubscribe();
      clearInterval(heartbeat);
      streams.delete(end);
      if (!res.writableEnded) res.end();
    };
    /** The reader does not keep up: cut it off without waiting for the buffered bytes to drain. */
    const drop = () => {
      end();
      res.destroy();
    };
    streams.add(end);
    req.on('close', end);
  };
}

/** Ends every open stream of `journal` (the server is closing). */
export function endJournalStreams(journal: Journal): void {
  for (const end of [...(openStreams.get(journal) ?? [])]) end();
}
