// The composition root: opens the database and wires the repos, the services, the messengers, the dispatchers and the
// housekeeping together once; shared by the server, the CLI and the tests.
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import { openDatabase, type OpenOptions } from "./db/open.ts";
import { createAppDispatchers } from "./dispatch/app-dispatchers.ts";
import { createDiskSpace, type DiskSpaceOptions } from "./lib/disk-space.ts";
import { createConsoleLogger, type Logger } from "./lib/logger.ts";
import { createMessengerPool } from "./messaging/messenger-pool.ts";
import { createRepos } from "./repos/index.ts";
import { createHousekeeping } from "./services/housekeeping.ts";
import { createServices } from "./services/index.ts";
import { createOperatorService } from "./services/operator.ts";

export interface ContextOptions extends Pick<OpenOptions, "dbPath" | "database" | "beforeUpgrade"> {
  clock?: Clock;
  logger?: Logger;
  /** How often the server's dispatcher looks for changed messaging settings (default 2 s; tests use less). */
  settingsCheckEveryMs?: number;
  /** The free-space check of the data dir (src/lib/disk-space.ts); tests give a fake statfs, a margin, no cache. */
  diskSpace?: Partial<DiskSpaceOptions>;
  /** A certificate authority the mailer trusts besides the system's (tests: their loopback SMTP server's own). */
  mailTls?: { ca: string };
}

export function createContext(config: Config, options: ContextOptions = {}) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createConsoleLogger(config.logLevel);
  const database = openDatabase(config, { ...options, logger });
  const repos = createRepos(database.db);
  const marginBytes = config.diskMarginMb === null ? null : Math.round(config.diskMarginMb * 1024 * 1024);
  const diskSpace = createDiskSpace({ dir: config.dataDir, marginBytes, ...options.diskSpace });
  // Sandbox statuses go where Twilio's status callbacks go.
  const messengers = createMessengerPool({ messaging: () => services.settings.messaging(), clock, logger, onStatus: (u) => void services.statusCallbacks.apply(u) });
  const services = createServices({ repos, clock, config, logger, diskSpace, mailTls: options.mailTls, messengers, dispatcher: () => dispatchers.dispatcher });
  const dispatchers = createAppDispatchers({
    repos,
    settings: services.settings,
    optOuts: services.optOuts,
    pauses: services.sendingPause,
    statusCallbacks: services.statusCallbacks,
    messengers,
    logger,
    reconcileAfterMs: config.reconcileAfterMs,
    lockDir: database.dbPath === ":memory:" ? null : config.dataDir,
    settingsCheckEveryMs: options.settingsCheckEveryMs,
  });
  const housekeeping = createHousekeeping({ uploads: services.uploads, logger, hourly: () => services.inbox.hourly() });
  return {
    config,
    /** The database itself: for the tests and benchmarks only (the CLI has `operator`, the app its services). */
    db: database.db,
    repos,
    /** Free room on the data dir's disk: the write guard (src/http/middleware/disk-space.ts) and uploads ask it. */
    diskSpace,
    /** Starts the housekeeping timers of a server (src/services/housekeeping.ts). */
    startHousekeeping: housekeeping.start,
    dbPath: database.dbPath,
    schemaUpgrade: database.schemaUpgrade,
    services,
    /** What the operator's commands (backup, restore, prune, serve) do to the database (src/services/operator.ts). */
    operator: createOperatorService({ repos, file: database }),
    dispatcher: dispatchers.dispatcher,
    /** Another dispatcher on the same store and lock, with its own messenger from the settings (the CLI's
     * `broadcast --wait`, benchmarks). */
    dispatcherWith: dispatchers.dispatcherWith,
    clock,
    logger,
    close(): void {
      housekeeping.stop();
      messengers.closeAll();
      database.close();
    },
  };
}

export type AppContext = ReturnType<typeof createContext>;
