// Start-up: from spawning `node dist/src/cli.js` to its first successful answer (an authenticated,
// validated GET /users/me/subscriptions), median of several starts.
import { timeToFirstResponse } from '../lib/mock.js';
import { rssMb } from '../lib/proc.js';

export interface Startup {
  medianMs: number;
  samplesMs: number[];
  rssMb: number | null;
  /** The mock's own subscriptions body: the bytes the baselines answer with. */
  subscriptionsBody: string;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function measureStartup(starts: number, args: string[] = []): Promise<Startup> {
  const samplesMs: number[] = [];
  let body = '';
  let rss: number | null = null;
  for (let i = 0; i < starts; i++) {
    const { child, ms, body: text } = await timeToFirstResponse(`mock start ${i + 1}`, args);
    samplesMs.push(ms);
    body = text;
    rss = rssMb(child.proc.pid);
    await child.stop();
  }
  return { medianMs: median(samplesMs), samplesMs, rssMb: rss, subscriptionsBody: body };
}
