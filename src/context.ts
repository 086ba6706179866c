import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Clock, systemClock } from "./clock.ts";
import { type Config, ConfigError } from "./config.ts";
import { type Db, dbFileIn, openDb, withoutBusyWait } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { appliedSchema, KNOWN_SCHEMA } from "./db/schema-version.ts";
import { VERSION } from "./version.ts";
import { lockPathFor, SERVE_LOCK_FILE, tryLock } from "./db/lock.ts";
import { createDispatcher, type DispatcherOptions } from "./dispatch/dispatcher.ts";
import { restartOnChange } from "./dispatch/restart-on-change.ts";
import { tightenDataDir } from "./lib/data-dir-modes.ts";
import { createDiskSpace, type DiskSpaceOptions } from "./lib/disk-space.ts";
import { createConsoleLogger, type Logger } from "./lib/logger.ts";
import { createSmtpMailer } from "./mail/mailer.ts";
import { createMessenger } from "./messaging/index.ts";
import { createRepos } from "./repos/index.ts";
import { createAuthService } from "./services/auth.ts";
import { createBroadcastsService } from "./services/broadcasts/index.ts";
import { createConfirmationsService } from "./services/confirmations.ts";
import { createTextBudgetService } from "./services/text-budget.ts";
import { createBroadcastEstimateService } from "./services/broadcasts/estimate.ts";
import { createTestSendService } from "./services/broadcasts/test-send.ts";
import { createOwnerApprovalService } from "./services/owner-approval.ts";
import { createPhoneVerificationService } from "./services/phone-verification.ts";
import { createBusinessTypesService } from "./services/business-types.ts";
import { createBusinessesService } from "./services/businesses.ts";
import { createChecklistService } from "./services/checklist.ts";
import { createDeviceCookies } from "./services/device-cookies.ts";
import { createCustomerMessagesService } from "./services/customer-messages.ts";
import { createCustomersService } from "./services/customers.ts";
import { createEmailService } from "./services/email.ts";
import { createHealthService } from "./services/health.ts";
import { createInboundMessagesService } from "./services/inbound-messages.ts";
import { createOptOutsService } from "./services/opt-outs.ts";
import { createPostersService } from "./services/posters.ts";
import { createQrCodesService } from "./services/qr-codes.ts";
import { createSettingsService } from "./services/settings.ts";
import { createSetupCodeService } from "./services/setup-code.ts";
import { createStatusCallbacksService } from "./services/status-callbacks.ts";
import { createSubscriptionsService } from "./services/subscriptions.ts";
import { createUploadsService } from "./services/uploads.ts";
import { createWhatsAppTemplatesService } from "./services/whatsapp-templates.ts";
import { isMarketingStopped } from "./messaging/whatsapp-errors.ts";
import { storedNumberProblem } from "./schemas/subscribe-number.ts";

/**
 * How a command may treat the database: "migrate" creates it or brings it to this executable's schema (serve,
 * `nearcast migrate`, tests); "create" does the same for a new file only (`users create`); "existing" needs a file
 * already at this schema (every other command: a mistyped --data-dir is an error, not a new empty database).
 */
export type DatabaseMode = "migrate" | "create" | "existing";

export interface ContextOptions {
  /** ":memory:" for tests; defaults to <dataDir>/nearcast.db. */
  dbPath?: string;
  /** Default "migrate". */
  database?: DatabaseMode;
  /** Called before an existing database (schema `from` > 0) is migrated to `to`: serve and migrate back it up then. */
  beforeUpgrade?: (sqlite: Db["$client"], from: number, to: number) => void;
  clock?: Clock;
  logger?: Logger;
  /** How often the server's dispatcher looks for changed messaging settings (default 2 s; tests use less). */
  settingsCheckEveryMs?: number;
  /** The free-space check of the data dir (src/lib/disk-space.ts); tests give a fake statfs, a margin, no cache. */
  diskSpace?: Partial<DiskSpaceOptions>;
  /** A certificate authority the mailer trusts besides the system's (tests: their loopback SMTP server's own). */
  mailTls?: { ca: string };
}

/** How often the server deletes uploads nothing references (src/services/uploads.ts sweepUnreferenced). */
export const UPLOAD_SWEEP_EVERY_MS = 60 * 60 * 1000;

// Wires everything once; shared by the server, the CLI and the tests.
export function createContext(config: Config, options: ContextOptions = {}) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createConsoleLogger(config.logLevel);
  const mode = options.database ?? "migrate";
  let dbPath = options.dbPath;
  if (!dbPath && mode === "existing" && !existsSync(dbFileIn(config.dataDir))) {
    throw new ConfigError(
      `no database at ${dbFileIn(config.dataDir)}: check --data-dir (or NEARCAST_DATA_DIR); \`nearcast serve\` or \`nearcast migrate\` creates one`,
    );
  }
  if (!dbPath) {
    try {
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new ConfigError(`--data-dir ${config.dataDir} cannot be created (${(err as { code?: string }).code ?? "error"}): choose a writable folder with --data-dir or NEARCAST_DATA_DIR`);
    }
    dbPath = dbFileIn(config.dataDir);
  }
  const db = openDb(dbPath);
  const from = appliedSchema(db.$client);
  let schemaUpgrade: { from: number; to: number } | null = null;
  if (from > KNOWN_SCHEMA) {
    db.$client.close();
    throw new ConfigError(`${dbPath} has database schema ${from}, newer than this nearcast's ${KNOWN_SCHEMA} (version ${VERSION}): run the newer nearcast that upgraded it`);
  }
  if (from < KNOWN_SCHEMA) {
    if (mode === "existing" || (mode === "create" && from > 0)) {
      db.$client.close();
      throw new ConfigError(`${dbPath} has database schema ${from}; this nearcast (version ${VERSION}) needs ${KNOWN_SCHEMA}: run \`nearcast migrate --data-dir ${config.dataDir}\` first`);
    }
    if (from > 0) options.beforeUpgrade?.(db.$client, from, KNOWN_SCHEMA);
    migrate(db);
    if (from > 0) {
      schemaUpgrade = { from, to: KNOWN_SCHEMA };
      logger.info(`database upgraded from schema ${from} to ${KNOWN_SCHEMA}`);
    }
  }
  if (dbPath !== ":memory:") tightenDataDir(config.dataDir, { dbPath, lockPaths: [lockPathFor(config.dataDir), join(config.dataDir, SERVE_LOCK_FILE)] }, logger);
  const repos = createRepos(db);
  const diskSpace = createDiskSpace({
    dir: config.dataDir,
    marginBytes: config.diskMarginMb === null ? null : Math.round(config.diskMarginMb * 1024 * 1024),
    ...options.diskSpace,
  });
  const settings = createSettingsService({ repos, clock, config });
  const uploads = createUploadsService({ repos, config, clock, quotaMb: () => settings.current().uploadQuotaMb, diskSpace });
  const mailer = createSmtpMailer({ settings: () => settings.current(), tls: options.mailTls });
  const whatsappTemplates = createWhatsAppTemplatesService({ messaging: () => settings.messaging(), clock });
  const textBudget = createTextBudgetService({ repos, clock, settings });
  const confirmations = createConfirmationsService({ repos, clock, settings, textBudget });
  const broadcasts = createBroadcastsService({ repos, clock, uploads, templates: whatsappTemplates, settings });
  // Approving an owner releases the confirmations held for them, within the budget.
  const ownerApproval = createOwnerApprovalService({ repos, clock, logger, settings, mailer, removeUploadFiles: (names) => uploads.removeFiles(names), releaseHeld: (id) => void textBudget.releaseHeld(id) });
  const tryNow = (t: Parameters<typeof textBudget.tryNow>[0]) => textBudget.tryNow(t);
  const services = {
    ownerApproval,
    // Its code goes through the messenger of the moment, like a test send (newMessenger is defined below).
    phoneVerification: createPhoneVerificationService({ repos, clock, config, settings, tryNow, openMessenger: () => newMessenger(), closeMessenger: (m) => closeMessenger(m) }),
    settings,
    setupCode: createSetupCodeService({ repos, clock, config, settings }),
    // The dispatcher is made below, from these services; the check reads it when asked.
    health: createHealthService({ repos, clock, dispatcher: () => dispatcher }),
    auth: createAuthService({ repos, clock, config, logger, settings, mailer, signup: ownerApproval }),
    deviceCookies: createDeviceCookies({ repos, clock }),
    email: createEmailService({ mailer, settings }),
    businessTypes: createBusinessTypesService({ repos }),
    businesses: createBusinessesService({ repos }),
    qrCodes: createQrCodesService({ repos, settings }),
    posters: createPostersService({ repos, config, settings }),
    subscriptions: createSubscriptionsService({ repos, clock, config, settings, confirmations }),
    confirmations,
    textBudget,
    customers: createCustomersService({ repos, clock, config, confirmations, settings }),
    broadcasts,
    whatsappTemplates,
    optOuts: createOptOutsService({ repos }),
    statusCallbacks: createStatusCallbacksService({ repos, clock, logger }),
    inboundMessages: createInboundMessagesService({ repos, clock, config, logger, settings, confirmations }),
    customerMessages: createCustomerMessagesService({ repos }),
    uploads,
    checklist: createChecklistService({ repos, clock, config, settings }),
    broadcastEstimate: createBroadcastEstimateService({
      repos,
      settings,
      whatsappSkips: async (actor, businessId, withTemplate) => {
        const a = await broadcasts.whatsappAudience(actor, businessId);
        return a.marketingStopped + (withTemplate ? a.usNumbers : a.needTemplate);
      },
    }),
    // Its messenger is made per test send, from the settings of that moment (newMessenger is defined below).
    testSend: createTestSendService({ repos, clock, uploads, settings, tryNow, openMessenger: () => newMessenger(), closeMessenger: (m) => closeMessenger(m) }),
  };
  // Sandbox statuses go where Twilio's status callbacks go; a 21610 on send opts the customer out everywhere.
  const messengers = new Set<ReturnType<typeof createMessenger>>();
  const newMessenger = () => {
    const m = createMessenger(settings.messaging(), { clock, logger, onStatus: (u) => void services.statusCallbacks.apply(u) });
    messengers.add(m);
    return m;
  };
  const closeMessenger = (m: ReturnType<typeof createMessenger>) => {
    m.close();
    messengers.delete(m);
  };
  // A dispatcher on the outbox repo with a messenger and rate from the settings now; its lock is the data
  // directory's (none for an in-memory database).
  const dispatcherWith = (overrides: Partial<DispatcherOptions> = {}) =>
    createDispatcher({
      // Never waiting for another process's write lock in the event loop (src/db/client.ts withoutBusyWait).
      store: withoutBusyWait(db.$client, {
        ...repos.deliveries,
        claim: (now: number, limit: number) => repos.deliveries.claim(now, limit, settings.deferralPolicy()),
        // Meta 131050 on a send: that person's WhatsApp marketing is off until they write to us there again.
        markFailed: (id: number, code: number | null, message: string, now: number) => {
          repos.deliveries.markFailed(id, code, message, now);
          if (isMarketingStopped(code)) repos.customerInbound.markMarketingStoppedByDelivery(id, now);
        },
      }),
      messenger: overrides.messenger ?? newMessenger(),
      logger,
      rate: settings.current().sendRate,
      takeLock: dbPath === ":memory:" ? null : () => tryLock(lockPathFor(config.dataDir)),
      standby: true,
      reconcileAfterMs: config.reconcileAfterMs,
      // The number rule of the moment, checked just before each send (src/schemas/subscribe-number.ts).
      numberRule: () => {
        const allowed = settings.current().allowedCountries;
        return (phone: string) => storedNumberProblem(phone, allowed);
      },
      onOptedOut: (customerId, at) => void services.optOuts.optOutCustomer(customerId, { source: "twilio-21610", at }),
      ...overrides,
    });
  // The server's dispatcher: rebuilt with a new messenger when the Twilio settings, the rate or the public URL change.
  const dispatcher = restartOnChange({
    settingsKey: () => JSON.stringify([settings.messaging(), settings.current().sendRate]),
    build: () => {
      const messenger = newMessenger();
      return { dispatcher: dispatcherWith({ messenger }), release: () => closeMessenger(messenger) };
    },
    logger,
    checkEveryMs: options.settingsCheckEveryMs,
  });
  // The server's housekeeping (started by `serve`, stopped by close()): unreferenced uploads go after 24 h.
  let sweepTimer: ReturnType<typeof setInterval> | null = null;
  const sweepUploads = () => {
    try {
      const removed = services.uploads.sweepUnreferenced();
      if (removed.length) logger.info(`deleted ${removed.length} unused upload(s) older than 24 hours`);
    } catch (err) {
      // A busy or full disk now is no reason to stop the server; the next sweep tries again.
      logger.warn(`upload sweep failed: ${(err as Error).message}`.replace(/\s+/g, " ").slice(0, 300));
    }
  };
  return {
    config,
    db,
    /** Free room on the data dir's disk: the write guard (src/http/middleware/disk-space.ts) and uploads ask it. */
    diskSpace,
    /** Starts the housekeeping timers of a server: the upload sweep, now and every hour. */
    startHousekeeping(): void {
      if (sweepTimer) return;
      sweepUploads();
      sweepTimer = setInterval(sweepUploads, UPLOAD_SWEEP_EVERY_MS);
      sweepTimer.unref?.();
    },
    /** The database file (":memory:" in tests). */
    dbPath,
    /** The schemas an existing database was upgraded between as this context opened it; null when it was not. */
    schemaUpgrade,
    repos,
    services,
    /** Sends email through the SMTP settings of the moment (src/mail). */
    mailer,
    dispatcher,
    /** Another dispatcher on the same store and lock, with its own messenger from the settings (the CLI's
     * `broadcast --wait`, benchmarks). */
    dispatcherWith,
    clock,
    logger,
    close(): void {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      for (const m of messengers) m.close();
      db.$client.close();
    },
  };
}

export type AppContext = ReturnType<typeof createContext>;
