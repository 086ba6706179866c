import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import { openDb } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { createDispatcher } from "./dispatch/dispatcher.ts";
import { lockPathFor } from "./dispatch/lock.ts";
import { consoleLogger, type Logger } from "./lib/logger.ts";
import { createMessenger } from "./messaging/index.ts";
import { createRepos } from "./repos/index.ts";
import { createAuthService } from "./services/auth.ts";
import { createBroadcastsService } from "./services/broadcasts.ts";
import { createBusinessTypesService } from "./services/business-types.ts";
import { createBusinessesService } from "./services/businesses.ts";
import { createPostersService } from "./services/posters.ts";
import { createQrCodesService } from "./services/qr-codes.ts";
import { createCustomersService } from "./services/customers.ts";
import { createSubscriptionsService } from "./services/subscriptions.ts";
import { createOptOutsService } from "./services/opt-outs.ts";
import { createStatusCallbacksService } from "./services/status-callbacks.ts";
import { createInboundMessagesService } from "./services/inbound-messages.ts";
import { createCustomerMessagesService } from "./services/customer-messages.ts";
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
    mkdirSync(config.dataDir, { recursive: true });
    dbPath = join(config.dataDir, "nearcast.db");
  }
  const db = openDb(dbPath);
  migrate(db);
  const repos = createRepos(db);
  const services = {
    auth: createAuthService({ repos, clock, config, logger }),
    businessTypes: createBusinessTypesService({ repos }),
    businesses: createBusinessesService({ repos }),
    qrCodes: createQrCodesService({ repos, config }),
    posters: createPostersService({ repos, config }),
    subscriptions: createSubscriptionsService({ repos, clock, config }),
    customers: createCustomersService({ repos, clock, config }),
    broadcasts: createBroadcastsService({ repos, clock, uploads: createUploadsService({ repos, config }) }),
    optOuts: createOptOutsService({ repos }),
    statusCallbacks: createStatusCallbacksService({ repos, clock, logger }),
    inboundMessages: createInboundMessagesService({ repos, clock, config, logger }),
    customerMessages: createCustomerMessagesService({ repos }),
    uploads: createUploadsService({ repos, config }),
  };
  // Sandbox statuses go where Twilio's status callbacks go; a 21610 on send opts the customer out everywhere.
  const messenger = createMessenger(config, { clock, logger, onStatus: (u) => void services.statusCallbacks.apply(u) });
  const dispatcher = createDispatcher({
    repos,
    messenger,
    logger,
    rate: config.sendRate,
    lockPath: dbPath === ":memory:" ? null : lockPathFor(config.dataDir),
    standby: true,
    reconcileAfterMs: config.reconcileAfterMs,
    onOptedOut: (customerId, at) => void services.optOuts.optOutCustomer(customerId, { source: "twilio-21610", at }),
  });
  return {
    config,
    db,
    repos,
    services,
    messenger,
    dispatcher,
    clock,
    logger,
    close(): void {
      messenger.close();
      db.$client.close();
    },
  };
}

export type AppContext = ReturnType<typeof createContext>;
