// The admin's email use cases (the Settings screen's "Send test email"). Sending itself is src/mail's.
import * as v from "valibot";
import { ForbiddenError, ValidationError } from "../errors.ts";
import { EmailNotConfiguredError, type Mailer } from "../mail/mailer.ts";
import { testEmail } from "../mail/templates.ts";
import { forgotPasswordSchema, NOT_AN_OBJECT } from "../schemas/auth.ts";
import { isOperator, managesAll, type Principal } from "./principal.ts";
import type { SettingsService } from "./settings.ts";
import { validate } from "./validate.ts";

export const TEST_EMAIL_NOT_CONFIGURED = "Email is not set up: save an SMTP URL in Settings (or set NEARCAST_SMTP_URL) first.";

/** {to?}: where the test email goes; the admin's own address when absent. */
const testEmailSchema = v.object({ to: v.nullish(forgotPasswordSchema.entries.email) }, NOT_AN_OBJECT);

export interface EmailDeps {
  mailer: Mailer;
  settings: Pick<SettingsService, "current" | "savedPublicUrl">;
}

export function createEmailService({ mailer, settings }: EmailDeps) {
  return {
    /** Sends a test email and waits for the SMTP server's answer: 400 email_not_configured or email_failed (why,
     * without the password) when it cannot. It names the saved public URL, never the request's address (it may go to
     * someone else). */
    async sendTest(actor: Principal, input: unknown): Promise<{ message: string }> {
      if (!managesAll(actor)) throw new ForbiddenError("Only an administrator can do this.");
      const { to: given } = validate(testEmailSchema, input);
      const to = given ?? (isOperator(actor) ? null : actor.email);
      if (!to) throw new ValidationError("Email address is required", { to: "Email address is required" });
      if (!mailer.configured()) throw new EmailNotConfiguredError(TEST_EMAIL_NOT_CONFIGURED);
      await mailer.send(testEmail(to, settings.current().brandName, settings.savedPublicUrl()));
      return { message: `Test email sent to ${to}.` };
    },
  };
}

export type EmailService = ReturnType<typeof createEmailService>;
