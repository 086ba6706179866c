// `nearcast coupons redeem CODE [--phone P]` (issue 25): a coupon redeemed at the counter, as the operator (any
// business's code). The same outcome as POST /api/coupon/Redeem; --json prints the API's body.
import { Command } from "commander";
import { AppError } from "../../src/errors.ts";
import type { RedeemOutcome } from "../../src/schemas/coupons.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, printJson, usageExit, withContext } from "../context.ts";
import { EXIT_COUPON_EXPIRED, EXIT_COUPON_USED, EXIT_OK, EXIT_USAGE } from "../exit-codes.ts";

const EXIT_OF = { 200: EXIT_OK, 409: EXIT_COUPON_USED, 410: EXIT_COUPON_EXPIRED } as const;

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

function print(o: RedeemOutcome): void {
  if (o.status === 409) return void process.stdout.write(`Already used on ${when(o.body.redeemedAt)}.\n`);
  if (o.status === 410) return void process.stdout.write(`Expired on ${when(o.body.expiredAt)}.\n`);
  const b = o.body;
  const who = b.customer ? `, customer #${b.customer.id} (${b.customer.phoneMasked})` : "";
  const until = b.expiresAt ? `; valid until ${when(b.expiresAt)}` : "";
  process.stdout.write(`Valid: redeemed ${b.code} (${b.kind} code of ${b.businessName}, broadcast #${b.broadcastId}${who})${until}.\n`);
}

export function couponsCommand(): Command {
  const cmd = new Command("coupons")
    .description("coupons of broadcasts' offers, redeemed at the counter")
    .exitOverride(usageExit)
    .addHelpText("after", examples("nearcast coupons redeem AB3K9QPM", "nearcast coupons redeem SAVE10 --phone '+1 415 555 0134' --json"));

  cmd
    .command("redeem")
    .description("redeem a code: a unique code once; a shared code each time (once per customer with --phone)")
    .argument("<code>", "the code the customer shows")
    .option("--phone <phone>", "the customer's phone (shared codes: counted once per customer)")
    .option("--json", "print the API's answer as JSON", false)
    .addOption(dataDirOption())
    .action((code: string, opts) =>
      withContext(opts, (ctx) => {
        let outcome: RedeemOutcome;
        try {
          outcome = ctx.services.coupons.redeem(OPERATOR, { code, phone: opts.phone ?? null });
        } catch (e) {
          // An unknown code as the API answers it, then exit 2 like any id that names nothing.
          if (!opts.json || !(e instanceof AppError)) throw e;
          printJson(e.fields ? { error: e.message, code: e.code, fields: e.fields } : { error: e.message, code: e.code });
          process.exitCode = EXIT_USAGE;
          return;
        }
        if (opts.json) printJson(outcome.body);
        else print(outcome);
        process.exitCode = EXIT_OF[outcome.status];
      }),
    );
  return cmd;
}
