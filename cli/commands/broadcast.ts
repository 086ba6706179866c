// `nearcast broadcast`: send (broadcast-send.ts), status, list and cancel, as the operator.
import { Command } from "commander";
import { EXPIRED_BEFORE_QUIET_HOURS } from "../../src/schemas/broadcasts.ts";
import { queueLine } from "../../src/schemas/broadcast-queue.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { printNotSentReasons, reportCommand } from "../broadcast-report.ts";
import { resultsCommand } from "../broadcast-results.ts";
import { sendCommand, stderrLogger } from "../broadcast-send.ts";
import { testCommand } from "../broadcast-test.ts";
import { dataDirOption, examples, parseId, printJson, printTable, usageExit, withContext } from "../context.ts";

/** `nearcast broadcast status <id>`: one broadcast's progress. */
function statusCommand(): Command {
  return new Command("status")
    .description("show a broadcast's progress: queued, sent, delivered, failed, skipped, expired, cancelled, and why")
    .argument("<id>", "broadcast id (printed by broadcast send)")
    .option("--json", "print as JSON (the API's GetBroadcastStatus shape)", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast broadcast status 12", "nearcast broadcast status 12 --json | jq .failed"))
    .action((rawId: string, opts: { json: boolean; dataDir?: string }) => {
      const id = parseId(rawId);
      return withContext(
        opts,
        (ctx) => {
          // Confirmations share the broadcasts' ids: one is refused as not found, in words that say so.
          const s = ctx.services.broadcasts.promotionStatus(OPERATOR, id);
          if (opts.json) {
            printJson(s);
            return;
          }
          const business = ctx.services.businesses.findManaged(OPERATOR, s.businessId);
          const lines: [string, string][] = [
            ["Broadcast", String(s.id)],
            ["Business", business ? `${business.name} (${s.businessId})` : String(s.businessId)],
            ["Created", s.createdAt],
            ["State", s.paused ? `${s.state}. ${s.paused}` : s.state],
            ...(s.scheduledFor ? [["Scheduled", s.scheduledFor] as [string, string]] : []),
            ...(s.cancelledAt ? [["Cancelled", s.cancelledAt] as [string, string]] : []),
            ["Message", s.messageText.replace(/\r?\n/g, " ")],
            ["Image", s.imagePath ?? "(none)"],
            ["Recipients", String(s.total)],
            ["Queued", queueLine(s) ? `${s.queued} (${queueLine(s)})` : String(s.queued)],
            ["Sent", String(s.sent)],
            ["Delivered", String(s.delivered)],
            ["Failed", String(s.failed)],
            ["Skipped", String(s.skipped)],
            ["Expired", s.expired > 0 ? `${s.expired} (${EXPIRED_BEFORE_QUIET_HOURS.toLowerCase()}; a retry sends them in the next window)` : "0"],
            ["Cancelled", String(s.cancelled)],
            ["Completed", s.completedAt ?? "not yet"],
          ];
          const width = Math.max(...lines.map(([k]) => k.length));
          for (const [k, v] of lines) process.stdout.write(`${`${k}:`.padEnd(width + 2)}${v}\n`);
          printNotSentReasons(ctx.services.broadcasts.notSentReasons(OPERATOR, id));
        },
        { logger: stderrLogger },
      );
    });
}

/** `nearcast broadcast list`: a business's broadcasts, newest first. */
function listCommand(): Command {
  return new Command("list")
    .description("list a business's broadcasts, newest first: scheduled, cancelled, sending or completed (opt-in confirmations are not broadcasts and are not listed)")
    .requiredOption("--business <id>", "business id (nearcast businesses list)")
    .option("--json", "print as JSON (the API's GetBroadcasts shape)", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast broadcast list --business 3", "nearcast broadcast list --business 3 --json"))
    .action((opts: { business: string; json: boolean; dataDir?: string }) => {
      const businessId = parseId(opts.business, "--business");
      return withContext(opts, (ctx) => {
        const list = ctx.services.broadcasts.list(OPERATOR, businessId);
        if (opts.json) return printJson(list);
        printTable(
          list.map((b) => ({
            id: b.id,
            state: b.state,
            when: b.scheduledFor ?? b.createdAt,
            recipients: b.total,
            message: b.messageText.replace(/\r?\n/g, " ").slice(0, 50),
          })),
          ["id", "state", "when", "recipients", "message"],
        );
      });
    });
}

/** `nearcast broadcast cancel <id>`: a scheduled broadcast, or stop one that is sending. */
function cancelCommand(): Command {
  return new Command("cancel")
    .description("cancel a scheduled broadcast, or stop one that is sending (what is not yet sent is cancelled)")
    .argument("<id>", "broadcast id (nearcast broadcast list)")
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast broadcast cancel 12"))
    .action((rawId: string, opts: { dataDir?: string }) => {
      const id = parseId(rawId);
      return withContext(opts, (ctx) => {
        const res = ctx.services.broadcasts.cancel(OPERATOR, String(id));
        process.stdout.write(`${res.message} (broadcast ${id})\n`);
      });
    });
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
        'nearcast broadcast send --business 3 --message "Doors open at 9" --at 2026-11-24T09:00-05:00',
        "nearcast broadcast list --business 3",
        "nearcast broadcast cancel 12",
        "nearcast broadcast status 12 --json",
        "nearcast broadcast report 12 > broadcast-12.csv",
        "nearcast broadcast results 12",
        'nearcast broadcast test --business 3 --to +14155550123 --message "2 for 1 bagels"',
      ),
    );
  // As cmd.command() would: each takes the parent's exit override and output settings.
  for (const sub of [sendCommand(), statusCommand(), listCommand(), cancelCommand(), reportCommand(), resultsCommand(), testCommand()]) cmd.addCommand(sub.copyInheritedSettings(cmd));
  return cmd;
}
