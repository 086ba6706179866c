// `nearcast broadcast send`: queue a broadcast with the checks of the Broadcast screen (the publish schema), ask
// before sending on a terminal, then follow it. --dry-run shows who would get it and writes nothing.
import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import type { AppContext } from "../src/context.ts";
import { ValidationError } from "../src/errors.ts";
import type { Logger } from "../src/lib/logger.ts";
import type { PublishBody } from "../src/schemas/broadcast-input.ts";
import { sniffImage } from "../src/schemas/image-sniff.ts";
import { countSegments } from "../src/schemas/sms-segments.ts";
import { DuplicateBroadcastError } from "../src/services/broadcasts/repeat-check.ts";
import { OPERATOR } from "../src/services/principal.ts";
import { confirmBroadcast } from "./broadcast-confirm.ts";
import { follow, plural } from "./broadcast-progress.ts";
import { dataDirOption, examples, parseId, printTable, withContext } from "./context.ts";
import { fileProblem } from "./file-errors.ts";

/** The dispatcher's warnings and errors go to stderr; its routine lines are not the user's business here. */
export const stderrLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (m) => process.stderr.write(`warning: ${m}\n`),
  error: (m) => process.stderr.write(`error: ${m}\n`),
};

function readImage(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new ValidationError(`Cannot read the image ${path}: ${fileProblem(e)}`);
  }
}

/** --dry-run: who would get the message, and what it costs in SMS segments; nothing is written. */
function printDryRun(ctx: AppContext, input: PublishBody, imageFile: string | undefined): void {
  const plan = ctx.services.broadcasts.dryRun(OPERATOR, input);
  const seg = countSegments(plan.messageText);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`Dry run: nothing was written or sent.`);
  out(`Business:   ${plan.businessName} (${plan.businessId})`);
  out(`Recipients: ${plan.counts.total} (${plan.counts.sms} SMS, ${plan.counts.whatsapp} WhatsApp)`);
  out(
    `Message:    ${plan.messageText.length} characters, ${seg.encoding}, ${plural(seg.segments, "SMS segment")} per SMS` +
      ` (${plan.counts.sms * seg.segments} segments for ${plural(plan.counts.sms, "SMS recipient")})`,
  );
  const image = input.image;
  if (image) out(`Image:      ${imageFile} (${sniffImage(image)?.contentType ?? "image"}, ${image.length} bytes), sent as MMS / WhatsApp media`);
  out("");
  printTable(
    plan.recipients.map((r) => ({ phone: r.phone, channel: r.channel, customer: r.customerId })),
    ["phone", "channel", "customer"],
  );
}

interface SendOptions {
  business: string;
  message: string;
  image?: string;
  dryRun: boolean;
  confirm: boolean;
  trackLinks: boolean;
  yes: boolean;
  at?: string;
  template?: string;
  var: string[];
  contentVariables?: string;
  couponCode?: string;
  uniqueCoupons: boolean;
  couponExpires?: string;
  wait: boolean;
  dataDir?: string;
}

/** --template with --var n=value (or --content-variables JSON) -> the publish's ContentSid and ContentVariables (the
 * service checks them against the template, as for the API). */
export function templateInput(opts: Pick<SendOptions, "template" | "var" | "contentVariables">): Pick<PublishBody, "contentSid" | "contentVariables"> {
  if (opts.var.length > 0 && opts.contentVariables !== undefined) throw new ValidationError("Give --var or --content-variables, not both.");
  let variables = opts.contentVariables;
  if (opts.var.length > 0) {
    const values: Record<string, string> = {};
    for (const pair of opts.var) {
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new ValidationError(`--var must be n=value, e.g. --var 1=Fresh (got "${pair}")`);
      values[pair.slice(0, eq).replace(/^\{\{|\}\}$/g, "").trim()] = pair.slice(eq + 1);
    }
    variables = JSON.stringify(values);
  }
  return {
    ...(opts.template !== undefined ? { contentSid: opts.template } : {}),
    ...(variables !== undefined ? { contentVariables: variables } : {}),
  };
}

/** Publishes as the operator and says what came of it (exit 2 for a repeat, 1 when nobody is subscribed). */
function send(opts: SendOptions): Promise<void> {
  const businessId = parseId(opts.business, "--business");
  const image = opts.image !== undefined ? readImage(opts.image) : null;
  const input: PublishBody = {
    businessId: String(businessId),
    messageText: opts.message,
    image,
    confirm: opts.confirm,
    trackLinks: opts.trackLinks,
    scheduledFor: opts.at,
    ...templateInput(opts),
    couponCode: opts.couponCode,
    uniqueCoupons: opts.uniqueCoupons,
    couponExpires: opts.couponExpires,
  };
  return withContext(
    opts,
    async (ctx) => {
      if (opts.dryRun) return printDryRun(ctx, input, opts.image);
      if (!opts.yes && !(await confirmBroadcast(ctx, input))) return;
      let result: Awaited<ReturnType<typeof ctx.services.broadcasts.publish>>;
      try {
        result = await ctx.services.broadcasts.publish(OPERATOR, input);
      } catch (e) {
        if (!(e instanceof DuplicateBroadcastError)) throw e;
        // Say what was sent and how to send it again on purpose.
        const earlier = ctx.services.broadcasts.status(OPERATOR, e.duplicateOf);
        process.stderr.write(
          `nearcast: this business sent this same message less than 10 minutes ago (broadcast ${earlier.id}, ` +
            `${plural(earlier.total, "recipient")}, at ${earlier.createdAt}); nothing was sent. ` +
            "To send it again, run the same command with --confirm.\n",
        );
        process.exitCode = 2;
        return;
      }
      if (!("broadcastId" in result)) {
        process.stderr.write(`nearcast: ${result.warning}\n`);
        process.exitCode = 1;
        return;
      }
      // Sent, but some WhatsApp recipients are skipped (no template outside the 24-hour window, US numbers…).
      if (result.warning) process.stderr.write(`nearcast: ${result.warning}\n`);
      process.stdout.write(`${result.message} (broadcast ${result.broadcastId})\n`);
      if (result.linkTracking?.reason) process.stderr.write(`nearcast: ${result.linkTracking.reason}\n`);
      // Scheduled: the server's dispatcher starts it at its time; nothing to follow now.
      if (opts.wait && !result.scheduledFor) await follow(ctx, result.broadcastId);
    },
    { logger: stderrLogger },
  );
}

export function sendCommand(): Command {
  return new Command("send")
    .summary("queue a broadcast and follow it until every message is settled")
    .description(
      "Queue a broadcast (the same checks as the Broadcast screen), then show a progress bar on stderr until every " +
        "message is settled. With no server running on the data directory, this command sends the messages itself " +
        "(at NEARCAST_SEND_RATE per second); with one running, it follows the server's progress.",
    )
    .requiredOption("--business <id>", "business id (nearcast businesses list)")
    .requiredOption("--message <text>", "the message text")
    .option("--image <file>", "a JPG, PNG, GIF or BMP image of at most 5MB, sent with the message")
    .option("--dry-run", "show the recipients and SMS segments; write and send nothing", false)
    .option("--confirm", "send even if the same text went to this business in the last 10 minutes", false)
    .option("--no-track-links", "send the links as written (by default each person gets short links on the public URL, to count clicks)")
    .option("-y, --yes", "send without asking (recipients, segments and cost are asked about on a terminal; required without one)", false)
    .option(
      "--at <time>",
      "schedule it instead: ISO 8601 with its UTC offset, at most 35 days ahead (e.g. 2026-11-24T09:00-05:00); " +
        "a running server starts it then, to the subscribers of that moment",
    )
    .option(
      "--template <sid>",
      "an approved WhatsApp template (HX…; see Settings) for the WhatsApp subscribers; SMS subscribers get --message",
    )
    .option("--var <n=value>", "a template variable, e.g. --var 1=Fresh (repeat for each)", (v: string, all: string[]) => [...all, v], [] as string[])
    .option("--content-variables <json>", 'the template variables as one JSON object, e.g. \'{"1":"Fresh"}\' (instead of --var)')
    .option("--coupon-code <code>", "an offer: one code for everyone (3-20 letters, digits or dashes), redeemed at the counter")
    .option("--unique-coupons", "an offer: a unique code per person, placed where the message has {code}", false)
    .option("--coupon-expires <date>", "the offer's last day (YYYY-MM-DD, in the business's time zone)")
    .addOption(new Option("--no-wait", "queue and return at once (a running server sends it)"))
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples(
        'nearcast broadcast send --business 3 --message "2 for 1 bagels today only!"',
        'nearcast broadcast send --business 3 --message "New menu" --image ./menu.jpg',
        'nearcast broadcast send --business 3 --message "From a script" --yes   # no question asked',
        'nearcast broadcast send --business 3 --message "Fresh bread at 7" --template HX0123… --var 1="Rosa\'s" --var 2="Fresh bread at 7"',
        'nearcast broadcast send --business 3 --message "Queued for the server" --no-wait',
        'nearcast broadcast send --business 3 --message "Who would get this?" --dry-run',
        'nearcast broadcast send --business 3 --message "2 for 1 bagels today only!" --confirm   # the same text again',
        'nearcast broadcast send --business 3 --message "Doors open at 9" --at 2026-11-24T09:00-05:00',
        'nearcast broadcast send --business 3 --message "Show {code} at the till: 10% off" --unique-coupons --coupon-expires 2026-12-31',
      ),
    )
    .action(send);
}
