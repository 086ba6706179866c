// The budget for texts nobody broadcast (issue 21): opt-in confirmations (public page, START, an owner's add, an
// import's welcome), test sends and phone-verification codes. A free account must not be a way to make the server
// text anyone at the operator's cost, so every such text takes a slot (the text_budget table) under
// - the owner's hourly budget (setting ownerTextsPerHour; the owner of the business the text is for),
// - the install's hourly budget (setting confirmationsPerHour, its pre-issue-21 name),
// - for confirmations, at most CONFIRMATIONS_PER_NUMBER_PER_DAY to one number per 24 h across the install.
// Confirmations past a budget wait their slot in the outbox; a test send or a code goes now or not at all (tryNow).
// The slot rule and why it holds for every rolling window: src/lib/budget-slots.ts.
import type { Clock } from "../clock.ts";
import { type BudgetKey, oneTextKey, SlotKey, slotFor } from "../lib/budget-slots.ts";
import type { Repos } from "../repos/index.ts";
import type { ConfirmationWait } from "../repos/sql/confirmations.ts";
import type { TextBudgetView } from "../schemas/text-budget.ts";
import type { CurrentSettings } from "./settings.ts";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Confirmations one number may get in a rolling 24 h, whichever businesses it is added to. */
export const CONFIRMATIONS_PER_NUMBER_PER_DAY = 3;

export type TryNowResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Slots for one batch of confirmations of one owner, inside the write transaction that queues them. */
export interface ConfirmationSlots {
  /** When a confirmation to `phone` may go (not taken yet). */
  next(phone: string): number;
  /** Takes that slot (the delivery was written) and records it. */
  take(phone: string, slot: number): void;
}

const ms = (t: number | Date) => (typeof t === "number" ? t : t.getTime());

type Limits = Pick<CurrentSettings, "ownerTextsPerHour" | "confirmationsPerHour">;

export interface TextBudgetDeps {
  repos: Repos;
  clock: Clock;
  settings: { current(): Limits };
}

export function createTextBudgetService({ repos, clock, settings }: TextBudgetDeps) {
  /** The owner's and the install's hourly keys, from the slots already given. */
  function hourKeys(ownerId: number, now: number, s: Limits = settings.current()): [SlotKey, SlotKey] {
    const since = now - HOUR_MS;
    return [
      new SlotKey(s.ownerTextsPerHour, HOUR_MS, repos.textBudget.ownerSlots(ownerId, since, s.ownerTextsPerHour)),
      new SlotKey(s.confirmationsPerHour, HOUR_MS, repos.textBudget.installSlots(since, s.confirmationsPerHour)),
    ];
  }

  /** The keys of ONE text: the limit-th latest slot of each, a row each (the subscribe path, bench/subscribe.ts). */
  function oneTextKeys(ownerId: number, phone: string | null, now: number, s: Limits): BudgetKey[] {
    const since = now - HOUR_MS;
    const keys = [
      oneTextKey(repos.textBudget.ownerNth(ownerId, since, s.ownerTextsPerHour), HOUR_MS),
      oneTextKey(repos.textBudget.installNth(since, s.confirmationsPerHour), HOUR_MS),
    ];
    if (phone !== null) keys.push(oneTextKey(repos.textBudget.confirmationNth(phone, now - DAY_MS, CONFIRMATIONS_PER_NUMBER_PER_DAY), DAY_MS));
    return keys;
  }

  /** Slots for the confirmations to `phones` (one per delivery, in order); `limits` when the caller has read them. */
  function confirmationSlots(ownerId: number, phones: readonly string[], now: number, limits: Limits = settings.current()): ConfirmationSlots {
    if (phones.length === 1) {
      const keys = oneTextKeys(ownerId, phones[0]!, now, limits);
      return {
        next: () => slotFor(now, keys),
        take(phone, slot) {
          repos.textBudget.insert({ ownerId, kind: "confirmation", phone, slotAt: slot }, now);
        },
      };
    }
    const hour = hourKeys(ownerId, now, limits);
    const taken = repos.textBudget.confirmationSlots([...new Set(phones)], now - DAY_MS, CONFIRMATIONS_PER_NUMBER_PER_DAY);
    const perNumber = new Map<string, SlotKey>();
    const keysOf = (phone: string) => {
      let key = perNumber.get(phone);
      if (!key) perNumber.set(phone, (key = new SlotKey(CONFIRMATIONS_PER_NUMBER_PER_DAY, DAY_MS, taken.get(phone) ?? [])));
      return [...hour, key];
    };
    return {
      next: (phone) => slotFor(now, keysOf(phone)),
      take(phone, slot) {
        for (const key of keysOf(phone)) key.take(slot);
        repos.textBudget.insert({ ownerId, kind: "confirmation", phone, slotAt: slot }, now);
      },
    };
  }

  return {
    confirmationSlots,

    /**
     * A test send or a verification code: it takes a slot only when it can go now, under the owner's and the
     * install's hourly budgets; otherwise how long until it could.
     */
    tryNow(t: { ownerId: number; kind: "test" | "verification" | "reply"; phone: string; now: number | Date }): TryNowResult {
      const now = ms(t.now);
      return repos.transaction(() => {
        const slot = slotFor(now, oneTextKeys(t.ownerId, null, now, settings.current()));
        if (slot > now) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((slot - now) / 1000)) };
        repos.textBudget.insert({ ownerId: t.ownerId, kind: t.kind, phone: t.phone, slotAt: now }, now);
        return { ok: true };
      });
    },

    /**
     * The admin approved the owner: the confirmations held for them (deferred_reason 'owner_pending') get slots
     * under the budgets, in the order they were written, and become due at them; anything else held (a safety net
     * of the dispatcher's claim) is due now. Answers how many confirmations were released.
     */
    releaseHeld(ownerId: number): number {
      const now = clock.now().getTime();
      return repos.transaction(() => {
        const held = repos.confirmations.heldOf(ownerId);
        if (held.length === 0) return 0;
        const slots = confirmationSlots(ownerId, held.filter((h) => h.confirmation).map((h) => h.phone), now);
        let released = 0;
        for (const h of held) {
          if (!h.confirmation) {
            repos.confirmations.release(h.id, now, null);
            continue;
          }
          const slot = slots.next(h.phone);
          const wait: ConfirmationWait = slot > now ? "text_budget" : null;
          if (repos.confirmations.release(h.id, slot, wait)) {
            slots.take(h.phone, slot);
            released++;
          }
        }
        return released;
      });
    },

    /** What is left this hour for the owner and for the install (the owner's screens show it). */
    left(ownerId: number, at: number | Date = clock.now()): TextBudgetView {
      const now = ms(at);
      const [owner, install] = hourKeys(ownerId, now);
      const ownerLeft = owner.leftAt(now);
      const installLeft = install.leftAt(now);
      const left = Math.min(ownerLeft, installLeft);
      return {
        owner: { limit: owner.limit, left: ownerLeft },
        install: { limit: install.limit, left: installLeft },
        left,
        waitSeconds: left > 0 ? 0 : Math.max(1, Math.ceil((slotFor(now, [owner, install]) - now) / 1000)),
      };
    },
  };
}

export type TextBudgetService = ReturnType<typeof createTextBudgetService>;
