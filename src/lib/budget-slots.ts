// The slot rule of the text budgets (src/services/text-budget.ts): a text's slot is the first moment at which it
// can go without any window of any of its keys (the owner's hour, the install's hour, a number's 24 hours) holding
// more than that key's limit:
//
//   slot = max(now, over each key: (the limit-th largest slot the key already holds) + its window)
//
// Why that is enough, whatever order slots are given in: suppose a window [t, t + w) of one key held limit + 1
// slots, and look at the one given last. The other `limit` were there already, all >= t, so the limit-th largest
// slot then was >= t, and the last one got >= t + w: outside the window. So no window ever holds more than `limit`.
// Only the `limit` largest slots of a key matter for that, and only those later than now - window, so a key keeps
// just those.

/** One key's budget as slotFor and takeSlot use it. */
export interface BudgetKey {
  /** The earliest slot this key allows now; -Infinity when it allows any. */
  earliest(): number;
  take(slot: number): void;
}

/**
 * A key for ONE more text, from nothing but its limit-th largest slot (null: fewer than limit): what a single text
 * (a subscription, a test send) needs, read with one row instead of `limit`.
 */
export function oneTextKey(nth: number | null, windowMs: number): BudgetKey {
  return { earliest: () => (nth === null ? Number.NEGATIVE_INFINITY : nth + windowMs), take: () => {} };
}

export class SlotKey implements BudgetKey {
  /** The key's largest slots, ascending, at most `limit` of them. */
  private readonly top: number[];

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    taken: readonly number[] = [],
  ) {
    this.top = [...taken].sort((a, b) => a - b).slice(-limit);
  }

  /** The earliest slot this key allows now; -Infinity while it holds fewer than `limit` slots. */
  earliest(): number {
    return this.top.length >= this.limit ? this.top[this.top.length - this.limit]! + this.windowMs : Number.NEGATIVE_INFINITY;
  }

  /** How many more texts could take a slot at `now` (those later than now - window count against it). */
  leftAt(now: number): number {
    return Math.max(0, this.limit - this.top.filter((s) => s > now - this.windowMs).length);
  }

  take(slot: number): void {
    let i = this.top.length;
    while (i > 0 && this.top[i - 1]! > slot) i--;
    this.top.splice(i, 0, slot);
    if (this.top.length > this.limit) this.top.shift();
  }
}

/** The slot of a text under all of `keys` at `now` (not taken: see take). */
export function slotFor(now: number, keys: readonly BudgetKey[]): number {
  let slot = now;
  for (const key of keys) slot = Math.max(slot, key.earliest());
  return slot;
}

/** Gives a text its slot under every one of `keys` and takes it in each. */
export function takeSlot(now: number, keys: readonly BudgetKey[]): number {
  const slot = slotFor(now, keys);
  for (const key of keys) key.take(slot);
  return slot;
}
