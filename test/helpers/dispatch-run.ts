// Runs the real dispatcher of a test context against whatever messenger its settings give (the fake Twilio, or the
// sandbox) on the context's fake clock, until `done()` holds. Quiet hours and the daily cap are not applied (the fake
// clock's morning is night in California); their tests claim with the policy themselves.
import { createDispatcher, type Dispatcher, type DispatcherOptions } from "../../src/dispatch/dispatcher.ts";
import { createMessenger } from "../../src/messaging/index.ts";
import type { TestContext } from "./context.ts";
import { until, VirtualScheduler } from "./virtual-scheduler.ts";

export async function dispatchUntil(ctx: TestContext, done: () => boolean, rate = 50, options: Partial<DispatcherOptions> = {}, timeoutMs?: number): Promise<void> {
  const sched = new VirtualScheduler(ctx.clock);
  const messenger = createMessenger(ctx.services.settings.messaging(), { clock: ctx.clock, twilioTimeoutMs: 2000 });
  const d = testDispatcher(ctx, { messenger, scheduler: sched, rate, ...options });
  d.start();
  try {
    await until(done, timeoutMs);
  } finally {
    await d.stop();
    messenger.close();
  }
}

/** A dispatcher on the context's outbox and log, 50 messages a second, Uncertain rows looked up after 30 s; the rest
 * (its messenger and scheduler first) as given. Not started. */
export function testDispatcher(ctx: Pick<TestContext, "repos" | "logger">, options: Partial<DispatcherOptions> & Pick<DispatcherOptions, "messenger">): Dispatcher {
  return createDispatcher({ store: ctx.repos.deliveries, logger: ctx.logger, rate: 50, reconcileAfterMs: 30_000, ...options });
}
