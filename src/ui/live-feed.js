// New journal entries as they happen: server-sent events from /__mock/journal/stream, or polling
// GET /__mock/journal?since_id= when the stream is unavailable (a control token is required,
// a proxy buffers it, or the page was opened with ?transport=poll).
import { control, hasToken, streamUrl, currentSandbox } from './api.js';

const POLL_MS = 1000;
/** Stream failures before its first `ready` that make the page give up on it and poll. */
const MAX_STREAM_FAILURES = 2;

/**
 * Starts the feed after entry `sinceId`. onEntries(entries) receives new entries oldest first;
 * onStatus('live' | 'polling' | 'reconnecting' | 'offline' | 'refused'). Returns stop().
 */
export function startLiveFeed({ sinceId, onEntries, onStatus }) {
  let lastId = sinceId;
  let stopped = false;
  let source = null;
  let pollTimer = null;
  const forcePoll = new URLSearchParams(location.search).get('transport') === 'poll';

  const deliver = (entries) => {
    const fresh = entries.filter((e) => e.id > lastId);
    if (!fresh.length) return;
    lastId = Math.max(lastId, ...fresh.map((e) => e.id));
    onEntries(fresh);
  };

  function poll() {
    if (stopped) return;
    onStatus('polling');
    const tick = async () => {
      if (stopped) return;
      try {
        const page = await control('GET', '/journal', {
          query: { since_id: lastId, sandbox: currentSandbox(), limit: 500 },
        });
        deliver(page.entries.reverse());
        onStatus('polling');
      } catch (err) {
        onStatus(err.status === 401 ? 'refused' : 'offline');
      }
      if (!stopped) pollTimer = setTimeout(tick, POLL_MS);
    };
    tick();
  }

  function stream() {
    let failures = 0;
    let live = false;
    source = new EventSource(streamUrl(lastId));
    source.addEventListener('ready', () => {
      live = true;
      failures = 0;
      onStatus('live');
    });
    source.addEventListener('entry', (event) => deliver([JSON.parse(event.data)]));
    source.addEventListener('error', () => {
      if (stopped) return;
      if (live && source.readyState === EventSource.CONNECTING) {
        live = false;
        onStatus('reconnecting');
        return;
      }
      failures++;
      // Closed for good (an error answer such as 401), or failing again and again: poll instead.
      if (source.readyState === EventSource.CLOSED || failures >= MAX_STREAM_FAILURES) {
        source.close();
        source = null;
        poll();
      }
    });
  }

  if (forcePoll || hasToken() || typeof EventSource === 'undefined') poll();
  else stream();

  return function stop() {
    stopped = true;
    source?.close();
    clearTimeout(pollTimer);
  };
}
