import { Command } from "commander";
import { ValidationError } from "../../src/errors.ts";
import { dataDirOption, examples, printJson, usageExit, withContext } from "../context.ts";

/** Rows per transaction: short enough that a server beside the command never waits long for its own writes. */
const PRUNE_CHUNK = 2000;
/** Delivery rows younger than this are never pruned: the owner's recent history and any dispute about it. */
const MIN_DAYS = 30;
const DAY_MS = 86_400_000;

function parseDays(raw: string): number {
  const m = /^\s*(\d{1,5})\s*d\s*$/i.exec(raw);
  const days = m ? Number(m[1]) : Number.NaN;
  if (!(days >= MIN_DAYS)) throw new ValidationError(`--older-than must be a number of days, at least ${MIN_DAYS}, such as 400d (got "${raw}")`);
  return days;
}

export function pruneCommand(): Command {
  return new Command("prune")
    .description("remove the delivery rows of broadcasts that finished long ago, and what customers texted back past replyRetentionDays (never consent records)")
    .requiredOption("--older-than <days>", `broadcasts completed more than this long ago, in days (at least ${MIN_DAYS}d), e.g. 400d`)
    .option("--json", "print what was removed as JSON", false)
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `\nEach broadcast keeps its totals (sent, delivered, failed) in the history; the per-person rows go. Consent\n` +
        `records (opt-ins, STOP, START) are never pruned: they are your evidence of consent, kept for at least 4 years.\n` +
        examples("nearcast prune --older-than 400d", "nearcast prune --older-than 400d --json --data-dir /var/lib/nearcast"),
    )
    .action((opts: { olderThan: string; json: boolean; dataDir?: string }) => {
      const days = parseDays(opts.olderThan);
      return withContext(opts, async (ctx) => {
        const before = ctx.clock.now().getTime() - days * DAY_MS;
        const broadcasts = ctx.operator.prunableBroadcasts(before);
        let removed = 0;
        for (const id of broadcasts) {
          for (let n = ctx.operator.pruneDeliveries(id, PRUNE_CHUNK); n > 0; n = ctx.operator.pruneDeliveries(id, PRUNE_CHUNK)) {
            removed += n;
            await Bun.sleep(2); // the server's writes get their turn
          }
        }
        const cutoff = new Date(before).toISOString();
        // What customers texted back is kept replyRetentionDays (the setting), whatever --older-than says.
        const replies = ctx.services.inbox.prune();
        if (opts.json) printJson({ completedBefore: cutoff, broadcasts, deliveriesRemoved: removed, consentEventsRemoved: 0, replies });
        else {
          process.stdout.write(
            `Removed ${removed} delivery row(s) of ${broadcasts.length} broadcast(s) completed before ${cutoff}; their totals stay in the history. ` +
              "Consent records are never pruned.\n" +
              `Cleared the text of ${replies.bodiesCleared} stored reply(ies) and removed ${replies.mediaRemoved} media file(s) received before ${replies.before} (setting replyRetentionDays).\n`,
          );
        }
      });
    });
}
