// What a service that emails someone about the install needs: the admins' or an owner's address from the database,
// the time, the log, the mailer, and the brand and saved public URL its links are built on.
import type { Clock } from "../clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { Repos } from "../repos/index.ts";
import type { SettingsService } from "./settings.ts";

export interface MailingDeps {
  repos: Repos;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  /** Links in an email are built on the saved public URL only (none: the email names the screen). */
  settings: Pick<SettingsService, "current" | "savedPublicUrl">;
}
