import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { ValidationError } from "../../src/errors.ts";
import type { Logger } from "../../src/lib/logger.ts";
import { sniffImage } from "../../src/lib/image-sniff.ts";
import type { BroadcastSummary } from "../../src/schemas/broadcasts.ts";
import { countSegments } from "../../src/schemas/sms-segments.ts";
import { dataDirOption, examples, printJson, printTable } from "../context.ts";

function parseId(raw: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw.trim())) throw new ValidationError(`${what} must be a positive whole number (got "${raw}")`);
  return Number(raw.trim());
}

/** Usage mistakes (unknown option, missing argument) exit 2 like every other input error; help exits 0. */
function usageExit(err: { exitCode: number }): never {
  process.exit(err.exitCode === 0 ? 0 : 2);
}

/** The dispatcher's warnings and errors go to stderr; its routine lines are not the user's business here. */
const stderrLogger: Logger = {
  info: () => {},
  warn: (m) => process.stderr.write(`warning: ${m}\n`),
  error: (m) => process.stderr.write(`error: ${m}\n`),
};

function readImage(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new ValidationError(`Cannot read the image ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "[#########-----------] 45% 450/1000 · 440 sent · 0 delivered · 10 failed" */
export function progressLine(s: BroadcastSummary, width = 24): string {
  const done = s.total - s.queued;
  const ratio = s.total === 0 ? 1 : done / s.total;
  const filled = Math.round(ratio * width);
  const bar = `${"#".repeat(filled)}${"-".repeat(width - filled)}`;
  return `[${bar}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${done}/${s.total} · ${s.sent} sent · ${s.delivered} delivered · ${s.failed} failed`;
}

export function summaryLine(s: BroadcastSummary): string {
  const skipped = s.skipped > 0 ? ` (${s.skipped} skipped: unsubscribed before their turn)` : "";
  return `Broadcast ${s.id} completed: ${plural(s.total, "message")}, ${s.sent} sent, ${s.delivered} delivered, ${s.failed} failed${skipped}.`;
}

export function broadcastCommand(): Command {
  const cmd = new Command("broadcast")
    .description("send a message to every active subscriber of a business, and follow its progress")
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      examples(
        'nearcast broadcast send --business 3 --message "2 for 1 bagels today only!"',
        'nearcast broadcast send --business 3 --message "New menu" --image ./menu.jpg --no-wait',
        'nearcast broadcast send --business 3 --message "Hi" --dry-run',
        "nearcast broadcast status 12 --json",
      ),
    );

  cmd
    .command("send")
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
    .addOption(new Option("--no-wait", "queue and return at once (a running server sends it)"))
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples(
        'nearcast broadcast send --business 3 --message "2 for 1 bagels today only!"',
        'nearcast broadcast send --business 3 --message "New menu" --image ./menu.jpg',
        'nearcast broadcast send --business 3 --message "Queued for the server" --no-wait',
        'nearcast broadcast send --business 3 --message "Who would get this?" --dry-run',
      ),
    )
    .action(async (opts: { business: string; message: string; image?: string; dryRun: boolean; wait: boolean; dataDir?: string }) => {
      const businessId = parseId(opts.business, "--business");
      const image = opts.image !== undefined ? readImage(opts.image) : null;
      const config = loadConfig(process.env, opts);
      const ctx = createContext(config, { logger: stderrLogger });
      try {
        const input = { businessId: String(businessId), messageText: opts.message, image };
        if (opts.dryRun) {
          const plan = ctx.services.broadcasts.dryRun(input);
          const seg = countSegments(plan.messageText);
          const out = (line: string) => process.stdout.write(`${line}\n`);
          out(`Dry run: nothing was written or sent.`);
          out(`Business:   ${plan.businessName} (${plan.businessId})`);
          out(`Recipients: ${plan.counts.total} (${plan.counts.sms} SMS, ${plan.counts.whatsapp} WhatsApp)`);
          out(
            `Message:    ${plan.messageText.length} characters, ${seg.encoding}, ${plural(seg.segments, "SMS segment")} per SMS` +
              ` (${plan.counts.sms * seg.segments} segments for ${plural(plan.counts.sms, "SMS recipient")})`,
          );
          if (image) out(`Image:      ${opts.image} (${sniffImage(image)?.contentType ?? "image"}, ${image.length} bytes), sent as MMS / WhatsApp media`);
          out("");
          printTable(
            plan.recipients.map((r) => ({ phone: r.phone, channel: r.channel, customer: r.customerId })),
            ["phone", "channel", "customer"],
          );
          return;
        }

        const result = await ctx.services.broadcasts.publishAsOperator(input);
        if ("warning" in result) {
          process.stderr.write(`nearcast: ${result.warning}\n`);
          process.exitCode = 1;
          return;
        }
        process.stdout.write(`${result.message} (broadcast ${result.broadcastId})\n`);
        if (!opts.wait) return;

        // Send it ourselves unless a server already does (then follow it, and take over if it stops).
        const dispatcher = ctx.dispatcherWith({ logger: stderrLogger, lockRetryMs: 1000 });
        const mode = dispatcher.start();
        process.stderr.write(
          mode === "dispatching"
            ? `Sending (${Number.isFinite(config.sendRate) ? `${config.sendRate}/s` : "no rate limit"}, ${ctx.messenger.name})...\n`
            : "A running server is sending this broadcast; following its progress...\n",
        );
        let interrupted = false;
        const onSignal = () => {
          interrupted = true;
        };
        process.once("SIGINT", onSignal);
        process.once("SIGTERM", onSignal);
        const tty = process.stderr.isTTY === true;
        let last = "";
        let lastPrinted = 0;
        let summary = ctx.services.broadcasts.statusById(result.broadcastId);
        try {
          for (;;) {
            summary = ctx.services.broadcasts.statusById(result.broadcastId);
            const line = progressLine(summary);
            if (tty) process.stderr.write(`\r${line}`);
            else if (line !== last && (Date.now() - lastPrinted >= 2000 || summary.completedAt)) {
              // Not a terminal (a log, a pipe): a line every 2 s at most, and the final one.
              process.stderr.write(`${line}\n`);
              lastPrinted = Date.now();
              last = line;
            }
            if (summary.completedAt || interrupted) break;
            await Bun.sleep(200);
          }
        } finally {
          if (tty) process.stderr.write("\n");
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
          await dispatcher.stop();
        }
        if (interrupted && !summary.completedAt) {
          process.stderr.write(
            `Interrupted: ${summary.queued} message(s) stay queued; a server (or nearcast broadcast send) will send them. ` +
              `Follow with: nearcast broadcast status ${summary.id}\n`,
          );
          process.exitCode = 130;
          return;
        }
        process.stdout.write(`${summaryLine(summary)}\n`);
      } finally {
        ctx.close();
      }
    });

  cmd
    .command("status")
    .description("show a broadcast's progress: queued, sent, delivered, failed")
    .argument("<id>", "broadcast id (printed by broadcast send)")
    .option("--json", "print as JSON (the API's GetBroadcastStatus shape)", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast broadcast status 12", "nearcast broadcast status 12 --json | jq .failed"))
    .action((rawId: string, opts: { json: boolean; dataDir?: string }) => {
      const id = parseId(rawId, "ID");
      const ctx = createContext(loadConfig(process.env, opts), { logger: stderrLogger });
      try {
        const s = ctx.services.broadcasts.statusById(id);
        if (opts.json) {
          printJson(s);
          return;
        }
        const business = ctx.repos.businesses.findById(s.businessId);
        const lines: [string, string][] = [
          ["Broadcast", String(s.id)],
          ["Business", business ? `${business.name} (${s.businessId})` : String(s.businessId)],
          ["Created", s.createdAt],
          ["Message", s.messageText.replace(/\r?\n/g, " ")],
          ["Image", s.imagePath ?? "(none)"],
          ["Recipients", String(s.total)],
          ["Queued", String(s.queued)],
          ["Sent", String(s.sent)],
          ["Delivered", String(s.delivered)],
          ["Failed", s.skipped > 0 ? `${s.failed} (${s.skipped} skipped: unsubscribed before their turn)` : String(s.failed)],
          ["Completed", s.completedAt ?? "not yet"],
        ];
        const width = Math.max(...lines.map(([k]) => k.length));
        for (const [k, v] of lines) process.stdout.write(`${`${k}:`.padEnd(width + 2)}${v}\n`);
      } finally {
        ctx.close();
      }
    });

  return cmd;
}
