// The mock's clock. Real time by default; tests (and the control API) can set it, move it
// forward and freeze it. Everything in the domain asks this clock, never Date.now().

export interface ClockState {
  /** Current mock time, milliseconds since the epoch. */
  now_ms: number;
  frozen: boolean;
  /** Mock time minus real time, in milliseconds. */
  offset_ms: number;
}

export class Clock {
  private offsetMs = 0;
  private frozenAtMs: number | null = null;
  private listeners: Array<() => void> = [];

  constructor(private readonly realNow: () => number = Date.now) {}

  nowMs(): number {
    return this.frozenAtMs ?? this.realNow() + this.offsetMs;
  }

  /** Whole UNIX seconds, the unit of every timestamp in the API. */
  now(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  set(ms: number): void {
    if (this.frozenAtMs !== null) this.frozenAtMs = ms;
    else this.offsetMs = ms - this.realNow();
    this.changed();
  }

  advance(ms: number): void {
    this.set(this.nowMs() + ms);
  }

  freeze(): void {
    this.frozenAtMs = this.nowMs();
    this.changed();
  }

  unfreeze(): void {
    if (this.frozenAtMs === null) return;
    this.offsetMs = this.frozenAtMs - this.realNow();
    this.frozenAtMs = null;
    this.changed();
  }

  /** Back to real time. */
  reset(): void {
    this.offsetMs = 0;
    this.frozenAtMs = null;
    this.changed();
  }

  state(): ClockState {
    return { now_ms: this.nowMs(), frozen: this.frozenAtMs !== null, offset_ms: this.nowMs() - this.realNow() };
  }

  /** Called after every set/advance/freeze, so due work (scheduled messages) can run at once. */
  onChange(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
