// The sending work the real server leaves to its queue workers (the push notifications and
// missed-message emails of a new message, missedmessage_mobile_notifications and
// missedmessage_emails): queued by the send path, run after the sender has been answered, in
// the order queued: all that is queued runs once the current I/O callbacks (the requests read
// in this turn of the event loop, the sender's among them) are done, so that the queue never
// grows past one turn's sendings (a time-sliced queue fell behind under load, and the clock's
// tick, which flushes it, then stalled every request for a second). Bounded: past
// MAX_QUEUED the oldest job runs at once, in the request that queues the newest, so that nothing
// is lost and the memory held stays bounded. Whoever must see everything sent so far (the
// outbox's readers, the control API's settle call, the clock releasing due emails) runs what is
// queued first (flush), which keeps tests deterministic.

/** Jobs waiting at most; one more runs the oldest at once. */
const MAX_QUEUED = 10_000;

export class SendQueue {
  private jobs: Array<() => void> = [];
  private head = 0;
  private scheduled = false;

  /** Jobs queued and not yet run. */
  get pending(): number {
    return this.jobs.length - this.head;
  }

  /** Queues `job` to run after the current request has been answered. */
  defer(job: () => void): void {
    if (this.pending >= MAX_QUEUED) this.runOne();
    this.jobs.push(job);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Runs everything queued now (jobs a job queues included). */
  flush(): void {
    while (this.pending) this.runOne();
  }

  /** Forgets what is queued (a reset or an imported state: the messages it would tell of are gone). */
  clear(): void {
    this.jobs = [];
    this.head = 0;
  }

  private runOne(): void {
    const job = this.jobs[this.head++];
    // Let go of run jobs when the queue empties, and now and then on the way (rather than a
    // shift() per job, which moves the whole array).
    if (this.head === this.jobs.length || (this.head > 1024 && this.head * 2 > this.jobs.length)) {
      this.jobs = this.jobs.slice(this.head);
      this.head = 0;
    }
    try {
      job();
    } catch (err) {
      // A job runs on nobody's request: its failure is logged, and the next job still runs.
      console.error(`teamchat-mock: a queued notification failed: ${(err as Error).stack ?? err}`);
    }
  }
}
