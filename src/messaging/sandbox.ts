// The sandbox messenger: used when Twilio is not configured, so the product works end to end without an account.
// Nothing leaves the machine. Every message is recorded (in memory, bounded; the dispatcher records it in the DB)
// and gets a simulated timeline: Sent at once, then Delivered, or Failed for numbers ending in 0000.
import { type Clock, systemClock } from "../clock.ts";
import type { Logger } from "../lib/logger.ts";
import { deliveryIdOf, type Messenger, type OutboundMessage, type ProviderMessage, type SendOutcome, type StatusUpdate } from "./messenger.ts";
import { preflight } from "./messenger.ts";

/** setTimeout behind a port so tests can run the simulated timeline instantly. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const SANDBOX_FAILURE_CODE = 30006; // Twilio: landline or unreachable carrier
export const SANDBOX_FAILURE_MESSAGE = "Sandbox: simulated failure for numbers ending in 0000";

export interface SandboxOptions {
  clock?: Clock;
  timers?: Timers;
  /** Receives every simulated status change (Delivered / Failed). Errors it throws are logged, not propagated. */
  onStatus?: (update: StatusUpdate) => void;
  logger?: Logger;
  /** From send to Delivered/Failed; default 1000 ms. */
  deliveryDelayMs?: number;
  /** Messages kept in memory (oldest forgotten first); default 1000. */
  capacity?: number;
}

export interface SandboxMessage extends OutboundMessage, ProviderMessage {
  createdAt: Date;
  updatedAt: Date;
}

function fakeSid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(13));
  // "SM" + 32 characters, like a Twilio sid, but never valid at Twilio (not hex).
  return `SMsandbox${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 25)}`;
}

export function willSandboxFail(to: string): boolean {
  return to.replace(/\D/g, "").endsWith("0000");
}

export class SandboxMessenger implements Messenger {
  readonly name = "sandbox" as const;
  private readonly store = new Map<string, SandboxMessage>();
  private readonly pending = new Map<string, unknown>();
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly delayMs: number;
  private readonly capacity: number;
  private closed = false;

  constructor(private readonly options: SandboxOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? realTimers;
    this.delayMs = options.deliveryDelayMs ?? 1000;
    this.capacity = Math.max(1, options.capacity ?? 1000);
  }

  async send(msg: OutboundMessage): Promise<SendOutcome> {
    const refused = preflight(msg);
    if (refused) return refused;
    const now = this.clock.now();
    const record: SandboxMessage = {
      to: msg.to,
      channel: msg.channel,
      body: msg.body,
      ...(msg.mediaUrl ? { mediaUrl: msg.mediaUrl } : {}),
      ...(msg.contentSid !== undefined ? { contentSid: msg.contentSid, contentVariables: msg.contentVariables ?? "{}" } : {}),
      ...(msg.statusCallback ? { statusCallback: msg.statusCallback } : {}),
      providerId: fakeSid(),
      status: "Sent",
      providerStatus: "sent",
      errorCode: null,
      errorMessage: null,
      createdAt: now,
      updatedAt: now,
    };
    this.remember(record);
    if (!this.closed) {
      // The timer holds the record itself: a message forgotten by the bounded store is still reported.
      const handle = this.timers.set(() => this.settle(record), this.delayMs);
      this.pending.set(record.providerId, handle);
    }
    return { kind: "sent", providerId: record.providerId, status: "Sent", providerStatus: "sent" };
  }

  async lookup(providerId: string): Promise<ProviderMessage | null> {
    const m = this.store.get(providerId);
    return m ? providerView(m) : null;
  }

  async findRecent(msg: Pick<OutboundMessage, "to" | "channel" | "body" | "contentSid">, since: Date): Promise<ProviderMessage | null> {
    let found: SandboxMessage | null = null;
    const same = (m: SandboxMessage) => (msg.contentSid !== undefined ? m.contentSid === msg.contentSid : m.body === msg.body);
    for (const m of this.store.values()) {
      if (m.to === msg.to && m.channel === msg.channel && same(m) && m.createdAt >= since) found = m;
    }
    return found ? providerView(found) : null;
  }

  /** Recorded messages, oldest first (copies). */
  messages(): SandboxMessage[] {
    return Array.from(this.store.values(), (m) => ({ ...m }));
  }

  /** Simulated status changes not yet reported. */
  get pendingCount(): number {
    return this.pending.size;
  }

  close(): void {
    this.closed = true;
    for (const handle of this.pending.values()) this.timers.clear(handle);
    this.pending.clear();
  }

  private remember(record: SandboxMessage): void {
    this.store.set(record.providerId, record);
    while (this.store.size > this.capacity) {
      const oldest = this.store.keys().next().value as string;
      this.store.delete(oldest);
    }
  }

  private settle(m: SandboxMessage): void {
    this.pending.delete(m.providerId);
    if (this.closed) return;
    const failed = willSandboxFail(m.to);
    m.status = failed ? "Failed" : "Delivered";
    m.providerStatus = failed ? "undelivered" : "delivered";
    m.errorCode = failed ? SANDBOX_FAILURE_CODE : null;
    m.errorMessage = failed ? SANDBOX_FAILURE_MESSAGE : null;
    m.updatedAt = this.clock.now();
    try {
      this.options.onStatus?.({ ...providerView(m), at: m.updatedAt, deliveryId: deliveryIdOf(m.statusCallback) });
    } catch (err) {
      this.options.logger?.error(`sandbox status for ${m.providerId} not recorded: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

function providerView(m: SandboxMessage): ProviderMessage {
  return {
    providerId: m.providerId,
    status: m.status,
    providerStatus: m.providerStatus,
    errorCode: m.errorCode,
    errorMessage: m.errorMessage,
  };
}
