// The app's dispatchers: on the outbox (outbox-store.ts), with a messenger and the rate from the settings of the
// moment, the number rule checked before each send, a 21610 opting the person out everywhere, and the data
// directory's one-dispatcher lock (none for an in-memory database).
import { lockPathFor, tryLock } from "../db/lock.ts";
import type { Logger } from "../lib/logger.ts";
import type { MessengerPool } from "../messaging/messenger-pool.ts";
import type { Repos } from "../repos/index.ts";
import { storedNumberProblem } from "../schemas/subscribe-number.ts";
import type { OptOutsService } from "../services/opt-outs.ts";
import type { SendingPauseService } from "../services/sending-pause.ts";
import type { SettingsService } from "../services/settings.ts";
import type { StatusCallbacksService } from "../services/status-callbacks.ts";
import { createDispatcher, type DispatcherOptions } from "./dispatcher.ts";
import { outboxStore } from "./outbox-store.ts";
import { restartOnChange } from "./restart-on-change.ts";

export interface AppDispatchersDeps {
  repos: Repos;
  settings: SettingsService;
  optOuts: Pick<OptOutsService, "optOutCustomer">;
  /** Paused channels (account problems): kept there, and all resumed when the messaging settings change. */
  pauses: Pick<SendingPauseService, "store" | "resumeAll">;
  /** Where a looked-up outcome goes (a message sent without a status callback): as its callback would. */
  statusCallbacks?: Pick<StatusCallbacksService, "apply">;
  messengers: MessengerPool;
  logger: Logger;
  reconcileAfterMs: number;
  /** The data directory whose lock a dispatcher takes; null: no lock (an in-memory database). */
  lockDir: string | null;
  /** How often the server's dispatcher looks for changed messaging settings (default 2 s; tests use less). */
  settingsCheckEveryMs?: number;
}

export function createAppDispatchers({ repos, settings, optOuts, pauses, statusCallbacks, messengers, logger, reconcileAfterMs, lockDir, settingsCheckEveryMs }: AppDispatchersDeps) {
  /** A dispatcher on the outbox with a messenger (its own unless given) and the rate from the settings now. */
  const dispatcherWith = (overrides: Partial<DispatcherOptions> = {}) =>
    createDispatcher({
      store: outboxStore(repos, () => settings.deferralPolicy()),
      messenger: overrides.messenger ?? messengers.open(),
      logger,
      rate: settings.current().sendRate,
      takeLock: lockDir === null ? null : () => tryLock(lockPathFor(lockDir)),
      standby: true,
      reconcileAfterMs,
      // The number rule of the moment, checked just before each send (src/schemas/subscribe-number.ts).
      numberRule: () => {
        const allowed = settings.current().allowedCountries;
        return (phone: string) => storedNumberProblem(phone, allowed);
      },
      // Short links are built on the saved public URL only: they go to other people (src/services/public-links.ts).
      publicUrl: () => settings.savedPublicUrl(),
      onOptedOut: (customerId, at) => void optOuts.optOutCustomer(customerId, { source: "twilio-21610", at }),
      // Like the store, never waiting in SQLite's busy handler (a busy write is tried again a moment later).
      pauses: repos.withoutBusyWait(pauses.store),
      ...(statusCallbacks ? { onProviderStatus: (update) => void statusCallbacks.apply(update) } : {}),
      ...overrides,
    });
  // The server's dispatcher: rebuilt with a new messenger when the Twilio settings, the rate or the public URL change;
  // such a change is the fix of a paused channel (a new token, a sender set), so every channel resumes with it.
  const dispatcher = restartOnChange({
    settingsKey: () => JSON.stringify([settings.messaging(), settings.current().sendRate]),
    build: () => {
      const messenger = messengers.open();
      return { dispatcher: dispatcherWith({ messenger }), release: () => messengers.close(messenger) };
    },
    logger,
    checkEveryMs: settingsCheckEveryMs,
    onChange: () => pauses.resumeAll(),
  });
  return { dispatcher, dispatcherWith };
}
