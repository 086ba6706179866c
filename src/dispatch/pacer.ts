// Paces message starts to a rate (messages per second) on an injected clock.
//
// Starts are laid on a grid of 1000/rate ms (rounded up to whole milliseconds from the grid's origin, so rounding
// never accumulates); a start that cannot keep up moves the grid to "now" instead of bursting to catch up. On top,
// a sliding-window check: a start is never less than 1000 ms after the start ⌈rate⌉ positions earlier. So for a
// whole-number rate no 1-second window ever holds more than `rate` starts, and a steady backlog goes out at exactly
// `rate` per second on average. (For a fractional rate, e.g. 2.5, starts are 400 ms apart: a window holds at most
// ⌈rate⌉.) pause() holds every start until a time (a provider's Retry-After).

const EPSILON = 1e-6;

export class Pacer {
  /** ms between starts; 0 = unlimited. */
  readonly interval: number;
  private readonly recent: number[];
  private pos = 0;
  private origin = 0;
  private index = 0;
  private started = false;
  private pausedUntil = Number.NEGATIVE_INFINITY;

  constructor(readonly rate: number) {
    if (!(rate > 0)) throw new Error(`send rate must be positive (got ${rate})`);
    const limited = Number.isFinite(rate);
    this.interval = limited ? 1000 / rate : 0;
    this.recent = limited ? new Array<number>(Math.max(1, Math.ceil(rate - EPSILON))).fill(Number.NEGATIVE_INFINITY) : [];
  }

  get unlimited(): boolean {
    return this.interval === 0;
  }

  private gridSlot(): number {
    return this.started ? this.origin + Math.ceil(this.index * this.interval - EPSILON) : Number.NEGATIVE_INFINITY;
  }

  /** The earliest time (>= now) the next start may happen. Reserves nothing. */
  next(now: number): number {
    let t = Math.max(now, this.pausedUntil);
    if (this.unlimited) return t;
    t = Math.max(t, this.gridSlot(), this.recent[this.pos]! + 1000);
    return t;
  }

  /** Takes the next start: returns its time (>= now); the caller waits until then. */
  take(now: number): number {
    const t = this.next(now);
    if (this.unlimited) return t;
    if (t === this.gridSlot()) this.index += 1;
    else {
      // Behind the grid (idle, paused, or slow): a new grid starts here.
      this.origin = t;
      this.index = 1;
      this.started = true;
    }
    this.recent[this.pos] = t;
    this.pos = (this.pos + 1) % this.recent.length;
    return t;
  }

  /** How many starts fit from now to now + horizonMs (at least 1). */
  capacity(horizonMs: number): number {
    if (this.unlimited) return Number.POSITIVE_INFINITY;
    return Math.max(1, Math.floor(horizonMs / this.interval));
  }

  /** No start before `until` (e.g. the provider said 429 with Retry-After). */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }
}
