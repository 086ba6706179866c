// A dispatcher that follows the settings: every `checkEveryMs` it compares what its sends depend on (the Twilio
// account, the senders, the rate, the public URL) with what it was built from, and when they differ it stops the
// running dispatcher (sends in flight finish, unstarted claims go back to the queue) and starts one built from the
// new settings. So a change on the Settings screen, or from `nearcast settings set` in another process, takes
// effect within seconds, without a restart of the server.
import type { Logger } from "../lib/logger.ts";
import type { Dispatcher, DispatcherState } from "./dispatcher.ts";
import type { DispatcherStats } from "./stats.ts";

export interface Built {
  dispatcher: Dispatcher;
  /** Frees what was built with it (the messenger), after the dispatcher stopped. */
  release(): void;
}

export interface RestartOnChangeOptions {
  /** A text that changes whenever the dispatcher must be rebuilt. */
  settingsKey(): string;
  build(): Built;
  /** After the old dispatcher stopped and before the new one is built (the settings changed). */
  onChange?: () => void;
  logger: Logger;
  checkEveryMs?: number;
}

export function restartOnChange(options: RestartOnChangeOptions): Dispatcher {
  const { logger } = options;
  let key = options.settingsKey();
  let current = options.build();
  let timer: ReturnType<typeof setInterval> | null = null;
  // Restarts and stop() run one after another, never interleaved.
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;

  const check = () => {
    chain = chain.then(async () => {
      if (stopped) return;
      let next: string;
      try {
        next = options.settingsKey();
      } catch (e) {
        logger.error(`dispatcher: could not read the settings: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      if (next === key) return;
      logger.info("dispatcher: the messaging settings changed; restarting with the new ones");
      await current.dispatcher.stop();
      current.release();
      key = next;
      try {
        options.onChange?.();
      } catch (e) {
        logger.error(`dispatcher: after the settings change: ${e instanceof Error ? e.message : String(e)}`);
      }
      current = options.build();
      current.dispatcher.start();
    });
  };

  return {
    start() {
      const state = current.dispatcher.start();
      timer = setInterval(check, options.checkEveryMs ?? 2000);
      timer.unref?.();
      return state;
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await chain;
      await current.dispatcher.stop();
      current.release();
    },
    get state(): DispatcherState {
      return current.dispatcher.state;
    },
    get stats(): DispatcherStats {
      return current.dispatcher.stats;
    },
    whenDispatching() {
      return current.dispatcher.whenDispatching();
    },
  };
}
