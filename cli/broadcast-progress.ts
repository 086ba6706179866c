// How `nearcast broadcast send` follows a broadcast it queued: a progress bar on stderr, then a summary line.
import type { AppContext } from "../src/context.ts";
import { queueLine } from "../src/schemas/broadcast-queue.ts";
import type { BroadcastSummary } from "../src/schemas/broadcasts.ts";
import { OPERATOR } from "../src/services/principal.ts";
import { bar, ProgressPrinter } from "./progress-bar.ts";

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "[#########-----------]  45% 450/1000 · 440 sent · 0 delivered · 10 failed" */
export function progressLine(s: BroadcastSummary, width = 24): string {
  const done = s.total - s.queued;
  return `${bar(s.total === 0 ? 1 : done / s.total, width)} ${done}/${s.total} · ${s.sent} sent · ${s.delivered} delivered · ${s.failed} failed${notSentText(s)}${waitingText(s)}${s.paused ? ` · ${s.paused}` : ""}`;
}

/** " · 3 held until 8:00 recipients' time / 1 waiting for the daily limit · Sending alongside 2 other shops", or ""
 * when nothing waits and no other shop sends. */
export function waitingText(s: Pick<BroadcastSummary, "waiting" | "queueAhead" | "state" | "total" | "queued">): string {
  const { quietHours, dailyLimit, quietHoursUntil } = s.waiting ?? { quietHours: 0, dailyLimit: 0 };
  const until = `${quietHours} held${quietHoursUntil ? ` until ${quietHoursUntil} recipients' time` : " for quiet hours"}`;
  const held = [quietHours > 0 && until, dailyLimit > 0 && `${dailyLimit} waiting for the daily limit`].filter(Boolean);
  const parts = [held.join(" / "), queueLine(s)].filter(Boolean);
  return parts.length ? ` · ${parts.join(" · ")}` : "";
}

/** " · 2 skipped · 5 cancelled", each only when there are some. */
export function notSentText(s: Pick<BroadcastSummary, "skipped" | "cancelled">): string {
  return `${s.skipped > 0 ? ` · ${s.skipped} skipped` : ""}${s.cancelled > 0 ? ` · ${s.cancelled} cancelled` : ""}`;
}

export function summaryLine(s: BroadcastSummary): string {
  const rest = `${s.skipped > 0 ? `, ${s.skipped} skipped` : ""}${s.cancelled > 0 ? `, ${s.cancelled} cancelled` : ""}`;
  return `Broadcast ${s.id} completed: ${plural(s.total, "message")}, ${s.sent} sent, ${s.delivered} delivered, ${s.failed} failed${rest}.`;
}

/**
 * Sends the broadcast with this process's dispatcher unless a server already does (then follows it, and takes over
 * if it stops), printing progress on stderr until every message is settled or the user interrupts.
 */
export async function follow(ctx: AppContext, broadcastId: number): Promise<void> {
  // A stopped server's broadcast is taken over within a second, not the server's standby interval.
  const dispatcher = ctx.dispatcherWith({ lockRetryMs: 1000 });
  const { sendRate: rate, twilio } = ctx.services.settings.current();
  const mode = dispatcher.start();
  process.stderr.write(
    mode === "dispatching"
      ? `Sending (${rate}/s, ${twilio ? "twilio" : "sandbox"})...\n`
      : "A running server is sending this broadcast; following its progress...\n",
  );
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const progress = new ProgressPrinter();
  let summary = ctx.services.broadcasts.status(OPERATOR, broadcastId);
  try {
    for (;;) {
      summary = ctx.services.broadcasts.status(OPERATOR, broadcastId);
      progress.update(progressLine(summary), summary.completedAt !== null);
      if (summary.completedAt || interrupted) break;
      await Bun.sleep(200);
    }
  } finally {
    progress.done();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await dispatcher.stop();
  }
  if (interrupted && !summary.completedAt) {
    process.stderr.write(
      `Interrupted: ${summary.queued} message(s) stay queued; a server (or nearcast broadcast send) will send them. ` +
        `Follow with: nearcast broadcast status ${summary.id}\n`,
    );
    process.exitCode = 130;
    return;
  }
  process.stdout.write(`${summaryLine(summary)}\n`);
}
