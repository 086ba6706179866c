import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Clock, systemClock } from "./clock.ts";
import { type Config, ConfigError } from "./config.ts";
import { openDb } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { lockPathFor, tryLock } from "./db/lock.ts";
import { createDispatcher, type DispatcherOptions } from "./dispatch/dispatcher.ts";
import { consoleLogger, type Logger } from "./lib/logger.ts";
import { createMessenger } from "./messaging/index.ts";
import { createRepos } from "./repos/index.ts";
import { createAuthService } from "./services/auth.ts";
import { createBroadcastsService } from "./services/broadcasts.ts";
import { createBusinessTypesService } from "./services/business-types.ts";
import { createBusinessesService } from "./services/businesses.ts";
import { createCustomerMessagesService } from "./services/customer-messages.ts";
import { createCustomersService } from "./services/customers.ts";
import { createInboundMessagesService } from "./services/inbound-messages.ts";
import { createOptOutsService } from "./services/opt-outs.ts";
import { createPostersService } from "./services/posters.ts";
import { createQrCodesService } from "./services/qr-codes.ts";
import { createStatusCallbacksService } from "./services/status-callbacks.ts";
import { createSubscriptionsService } from "./services/subscriptions.ts";
import { createUploadsService } from "./services/uploads.ts";

export interface ContextOptions {
  /** ":memory:" for tests; defaults to <dataDir>/nearcast.db. */
  dbPath?: string;
  clock?: Clock;
  logger?: Logger;
}

// Wires everything once; shared by the server, the CLI and the tests.
export function createContext(config: Config, options: ContextOptions = {}) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger;
  let dbPath = options.dbPath;
  if (!dbPath) {
    try {
      mkdirSync(config.dataDir, { recursive: true });
    } catch (err) {
      throw new ConfigError(`--data-dir ${config.dataDir} cannot be created (${(err as { code?: string }).code ?? "error"}): choose a writable folder with --data-dir or NEARCAST_DATA_DIR`);
    }
    dbPath = join(config.dataDir, "nearcast.db");
  }
  const db = openDb(dbPath);
  migrate(db);
  const repos = createRepos(db);
  const uploads = createUploadsService({ repos, config });
  const services = {
    auth: createAuthService({ repos, clock, config, logger }),
    businessTypes: createBusinessTypesService({ repos }),
    businesses: createBusinessesService({ repos }),
    qrCodes: createQrCodesService({ repos, config }),
    posters: createPostersService({ repos, config }),
    subscriptions: createSubscriptionsService({ repos, clock, config }),
    customers: createCustomersService({ repos, clock, config }),
    broadcasts: createBroadcastsService({ repos, clock, uploads }),
    optOuts: createOptOutsService({ repos }),
    statusCallbacks: createStatusCallbacksService({ repos, clock, logger }),
    inboundMessages: createInboundMessagesService({ repos, clock, config, logger }),
    customerMessages: createCustomerMessagesService({ repos }),
    uploads,
  };
  // Sandbox statuses go where Twilio's status callbacks go; a 21610 on send opts the customer out everywhere.
  const messenger = createMessenger(config, { clock, logger, onStatus: (u) => void services.statusCallbacks.apply(u) });
  // The dispatcher's store is the outbox repo; its lock, the data directory's (none for an in-memory database).
  const dispatcherWith = (overrides: Partial<DispatcherOptions> = {}) =>
    createDispatcher({
      store: repos.deliveries,
      messenger,
      logger,
      rate: config.sendRate,
      takeLock: dbPath === ":memory:" ? null : () => tryLock(lockPathFor(config.dataDir)),
      standby: true,
      reconcileAfterMs: config.reconcileAfterMs,
      onOptedOut: (customerId, at) => void services.optOuts.optOutCustomer(customerId, { source: "twilio-21610", at }),
      ...overrides,
    });
  const dispatcher = dispatcherWith();
  return {
    config,
    db,
    /** The database file (":memory:" in tests). */
    dbPath,
    repos,
    services,
    messenger,
    dispatcher,
    /** Another dispatcher on the same store, messenger and lock (the CLI's `broadcast --wait`, benchmarks). */
    dispatcherWith,
    clock,
    logger,
    close(): void {
      messenger.close();
      db.$client.close();
    },
  };
}

export type AppContext = ReturnType<typeof createContext>;
