// Figures the API derives from a channel's messages: its first message, its average weekly
// traffic and whether it is recently active. Computed in one pass over the messages, since a
// subscription list needs them for many channels at once.
import type { Store } from '../../store/store.js';
import type { Stream } from '../../store/state.js';
import { DerivedSlot } from '../../store/derived.js';

const DAY = 86_400;
/** The real server averages the traffic of the last 28 days. */
const TRAFFIC_WINDOW_DAYS = 28;
/** A channel without messages for this long is no longer "recently active". */
const RECENTLY_ACTIVE_DAYS = 180;

interface ChannelMessages {
  first: number | null;
  last: number;
  recent: number;
}

export interface ChannelActivity {
  firstMessageId(streamId: number): number | null;
  weeklyTraffic(stream: Stream): number | null;
  isRecentlyActive(stream: Stream): boolean;
}

/** Two significant digits, as the real server rounds the weekly traffic. */
function roundTwoDigits(n: number): number {
  if (n < 100) return n;
  const factor = 10 ** (String(n).length - 2);
  return Math.round(n / factor) * factor;
}

/** The last figures of a world: valid while neither its messages nor the second change. */
const LAST_ACTIVITY = new DerivedSlot(() => ({
  kept: null as { stamp: string; now: number; activity: ChannelActivity } | null,
}));

export function channelActivity(store: Store, now: number): ChannelActivity {
  // One pass over every message: on a large state, far more than the request itself costs. The
  // pass reads messages only (channels are read when the figures are asked for).
  const stamp = store.partsVersion(['messages']);
  const last = store.derived.of(LAST_ACTIVITY);
  const hit = last.kept;
  if (hit && hit.stamp === stamp && hit.now === now) return hit.activity;
  const activity = computeActivity(store, now);
  last.kept = { stamp, now, activity };
  return activity;
}

function computeActivity(store: Store, now: number): ChannelActivity {
  const byStream = new Map<number, ChannelMessages>();
  const since = now - TRAFFIC_WINDOW_DAYS * DAY;
  for (const m of store.messages.all()) {
    if (m.stream_id === null) continue;
    let s = byStream.get(m.stream_id);
    if (!s) byStream.set(m.stream_id, (s = { first: null, last: 0, recent: 0 }));
    if (s.first === null || m.id < s.first) s.first = m.id;
    if (m.timestamp > s.last) s.last = m.timestamp;
    if (m.timestamp >= since && m.timestamp <= now) s.recent++;
  }
  return {
    firstMessageId: (streamId) => byStream.get(streamId)?.first ?? null,
    weeklyTraffic(stream) {
      // Channels younger than a week have too little data: null, as on the real server.
      const ageDays = Math.floor((now - stream.date_created) / DAY);
      if (ageDays < 7) return null;
      const traffic = byStream.get(stream.stream_id)?.recent ?? 0;
      let weekly = ageDays >= TRAFFIC_WINDOW_DAYS ? Math.floor(traffic / 4) : Math.floor((traffic * 7) / ageDays);
      if (weekly === 0 && traffic > 0) weekly = 1;
      return roundTwoDigits(weekly);
    },
    isRecentlyActive(stream) {
      if (stream.is_archived) return false;
      const cutoff = now - RECENTLY_ACTIVE_DAYS * DAY;
      return stream.date_created >= cutoff || (byStream.get(stream.stream_id)?.last ?? 0) >= cutoff;
    },
  };
}
