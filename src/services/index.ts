// Every service of the app, made once from the repos and the ports they need; src/context.ts hands them the rest.
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Dispatcher } from "../dispatch/dispatcher.ts";
import type { DiskSpace } from "../lib/disk-space.ts";
import type { Logger } from "../lib/logger.ts";
import { createSmtpMailer } from "../mail/mailer.ts";
import type { MessengerPool } from "../messaging/messenger-pool.ts";
import type { Repos } from "../repos/index.ts";
import { createAuthService } from "./auth.ts";
import { createBroadcastEstimateService } from "./broadcasts/estimate.ts";
import { createBroadcastsService } from "./broadcasts/index.ts";
import { createBusinessTypesService } from "./business-types.ts";
import { createBusinessesService } from "./businesses.ts";
import { createChecklistService } from "./checklist.ts";
import { createConfirmationsService } from "./confirmations.ts";
import { createCustomerMessagesService } from "./customer-messages.ts";
import { createCustomersService } from "./customers.ts";
import { createDatabaseCheckService } from "./database-check.ts";
import { createCouponsService } from "./coupons/redeem.ts";
import { createDeviceCookies } from "./device-cookies.ts";
import { createEmailService } from "./email.ts";
import { recordEmailOutcomes } from "./email-outcomes.ts";
import { createHealthService } from "./health.ts";
import { createInboundMessagesService } from "./inbound-messages.ts";
import { createInboxService } from "./inbox/index.ts";
import { createMySubscriptionsService } from "./my-subscriptions.ts";
import { createOptOutsService } from "./opt-outs.ts";
import { createOwnerApprovalService } from "./owner-approval.ts";
import { createPhoneVerificationService } from "./phone-verification.ts";
import { createPostersService } from "./posters.ts";
import { createQrCodesService } from "./qr-codes.ts";
import { createSendingPauseService } from "./sending-pause.ts";
import { createRegistrationService } from "./registration/index.ts";
import { createSettingsService } from "./settings.ts";
import { createShortLinksService } from "./short-links.ts";
import { createSetupCodeService } from "./setup-code.ts";
import { createStatusCallbacksService } from "./status-callbacks.ts";
import { createSubscriptionsService } from "./subscriptions.ts";
import { createTestSendService } from "./broadcasts/test-send.ts";
import { createTestOutcomeService } from "./broadcasts/test-outcome.ts";
import { createTextBudgetService } from "./text-budget.ts";
import { createUploadsService } from "./uploads.ts";
import { createWhatsAppTemplatesService } from "./whatsapp-templates.ts";

export interface ServicesDeps {
  repos: Repos;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Free room on the data dir's disk (uploads ask it). */
  diskSpace: DiskSpace;
  /** A certificate authority the mailer trusts besides the system's (tests: their loopback SMTP server's own). */
  mailTls?: { ca: string };
  /** Phone codes and test sends go through a messenger of the moment, opened and closed around each. */
  messengers: MessengerPool;
  /** The server's dispatcher, made from these services; the health check reads it when asked. */
  dispatcher: () => Dispatcher;
}

export function createServices({ repos, clock, config, logger, diskSpace, mailTls, messengers, dispatcher }: ServicesDeps) {
  const settings = createSettingsService({ repos, clock, config });
  const uploads = createUploadsService({ repos, config, clock, quotaMb: () => settings.current().uploadQuotaMb, diskSpace });
  const mailer = recordEmailOutcomes(createSmtpMailer({ settings: () => settings.current(), tls: mailTls }), { repos, clock, smtpUrl: () => settings.current().smtpUrl });
  const whatsappTemplates = createWhatsAppTemplatesService({ messaging: () => settings.messaging(), clock });
  const textBudget = createTextBudgetService({ repos, clock, settings });
  const confirmations = createConfirmationsService({ repos, clock, settings, textBudget });
  const broadcasts = createBroadcastsService({ repos, clock, uploads, templates: whatsappTemplates, settings });
  // Approving an owner releases the confirmations held for them, within the budget.
  const ownerApproval = createOwnerApprovalService({ repos, clock, logger, settings, mailer, removeUploadFiles: (names) => uploads.removeFiles(names), releaseHeld: (id) => void textBudget.releaseHeld(id) });
  const businesses = createBusinessesService({ repos });
  const posters = createPostersService({ repos, config, settings });
  const registration = createRegistrationService({ repos, clock, settings, businesses, posters });
  const tryNow = (t: Parameters<typeof textBudget.tryNow>[0]) => textBudget.tryNow(t);
  const sendingPause = createSendingPauseService({ repos, clock, logger, mailer, settings });
  const openMessenger = () => messengers.open();
  const closeMessenger = (m: ReturnType<typeof openMessenger>) => messengers.close(m);
  const databaseCheck = createDatabaseCheckService({ clock, logger });
  const mySubscriptions = createMySubscriptionsService({ repos, clock, settings, optOuts: createOptOutsService({ repos }) });
  return {
    ownerApproval,
    phoneVerification: createPhoneVerificationService({ repos, clock, config, settings, tryNow, openMessenger, closeMessenger }),
    settings,
    setupCode: createSetupCodeService({ repos, clock, config, settings }),
    health: createHealthService({ repos, clock, dispatcher }),
    auth: createAuthService({ repos, clock, config, logger, settings, mailer, signup: ownerApproval }),
    deviceCookies: createDeviceCookies({ repos, clock }),
    email: createEmailService({ mailer, settings }),
    businessTypes: createBusinessTypesService({ repos }),
    businesses,
    qrCodes: createQrCodesService({ repos, settings }),
    posters,
    registration,
    subscriptions: createSubscriptionsService({ repos, clock, config, settings, confirmations }),
    confirmations,
    textBudget,
    customers: createCustomersService({ repos, clock, config, confirmations, settings }),
    broadcasts,
    whatsappTemplates,
    optOuts: createOptOutsService({ repos }),
    statusCallbacks: createStatusCallbacksService({ repos, clock, logger, sendingPause }),
    sendingPause,
    inboundMessages: createInboundMessagesService({ repos, clock, config, logger, settings, confirmations, mySubscriptions }),
    mySubscriptions,
    customerMessages: createCustomerMessagesService({ repos }),
    shortLinks: createShortLinksService({ repos, clock, logger }),
    uploads,
    checklist: createChecklistService({ repos, clock, config, settings, registration, databaseCheck }),
    databaseCheck,
    broadcastEstimate: createBroadcastEstimateService({
      repos,
      settings,
      whatsappSkips: async (actor, businessId, withTemplate) => {
        const a = await broadcasts.whatsappAudience(actor, businessId);
        return a.marketingStopped + (withTemplate ? a.usNumbers : a.needTemplate);
      },
    }),
    testSend: createTestSendService({ repos, clock, uploads, settings, tryNow, openMessenger, closeMessenger, templates: whatsappTemplates }),
    testOutcome: createTestOutcomeService({ repos }),
    coupons: createCouponsService({ repos, clock, defaultCountry: config.defaultCountry }),
    inbox: createInboxService({ repos, clock, config, logger, mailer, settings, textBudget, templates: whatsappTemplates }),
  };
}

export type Services = ReturnType<typeof createServices>;
