// The messengers a process has open: each made from the messaging settings of the moment (a test send, a phone
// code, each dispatcher), all closed with the process. Sandbox statuses go where Twilio's status callbacks go.
import type { Clock } from "../clock.ts";
import type { Logger } from "../lib/logger.ts";
import { createMessenger, type MessengerConfig } from "./index.ts";
import type { Messenger, StatusUpdate } from "./messenger.ts";

export interface MessengerPoolDeps {
  /** The messaging settings of the moment (settings.messaging()). */
  messaging: () => MessengerConfig;
  clock: Clock;
  logger: Logger;
  onStatus: (update: StatusUpdate) => void;
}

export function createMessengerPool({ messaging, clock, logger, onStatus }: MessengerPoolDeps) {
  const open = new Set<Messenger>();
  return {
    /** A messenger from the settings now, kept until close() or closeAll(). */
    open(): Messenger {
      const m = createMessenger(messaging(), { clock, logger, onStatus });
      open.add(m);
      return m;
    },
    close(m: Messenger): void {
      m.close();
      open.delete(m);
    },
    closeAll(): void {
      for (const m of open) m.close();
    },
  };
}

export type MessengerPool = ReturnType<typeof createMessengerPool>;
