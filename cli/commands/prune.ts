import { Command } from "commander";
import { ValidationError } from "../../src/errors.ts";
import { PRUNE_MIN_DAYS, TRACKED_PRUNE_MIN_DAYS } from "../../src/services/prune-scope.ts";
import { EXIT_PARTIAL } from "../exit-codes.ts";
import { dataDirOption, examples, printJson, usageExit, withContext } from "../context.ts";

/** Rows per transaction: short enough that a server beside the command never waits long for its own writes. */
const PRUNE_CHUNK = 2000;

function parseDays(raw: string): number {
  const m = /^\s*(\d{1,5})\s*d\s*$/i.exec(raw);
  const days = m ? Number(m[1]) : Number.NaN;
  if (!(days >= PRUNE_MIN_DAYS)) throw new ValidationError(`--older-than must be a number of days, at least ${PRUNE_MIN_DAYS}, such as 400d (got "${raw}")`);
  return days;
}

/** The line saying which broadcasts with links or coupons were kept, and until when they will be. */
function keptLine(ids: number[], trackedBefore: number): string {
  return (
    `Kept the rows of ${ids.length} broadcast(s) with links or coupons completed after ${new Date(trackedBefore).toISOString()} ` +
    `(#${ids.join(", #")}): who clicked and who redeemed is kept at least ${TRACKED_PRUNE_MIN_DAYS} days; a later prune removes them.\n`
  );
}

export function pruneCommand(): Command {
  return new Command("prune")
    .description("remove the delivery rows of broadcasts that finished long ago, and what customers texted back past replyRetentionDays (never consent records)")
    .requiredOption(
      "--older-than <days>",
      `broadcasts completed more than this long ago, in days (at least ${PRUNE_MIN_DAYS}d; those with links or coupons at least ${TRACKED_PRUNE_MIN_DAYS}d), e.g. 400d`,
    )
    .option("--json", "print what was removed as JSON", false)
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `\nEach broadcast keeps its totals (sent, delivered, failed) in the history; the per-person rows go, with the\n` +
        `clicks on its links and its coupons and their redemptions. A broadcast with links or coupons keeps its rows at\n` +
        `least ${TRACKED_PRUNE_MIN_DAYS} days whatever --older-than says: such broadcasts completed more recently are listed, and\n` +
        `the command exits 3 (partly done). Consent records (opt-ins, STOP, START) are never pruned: they are your\n` +
        `evidence of consent, kept for at least 4 years.\n` +
        examples("nearcast prune --older-than 400d", "nearcast prune --older-than 400d --json --data-dir /var/lib/nearcast"),
    )
    .action((opts: { olderThan: string; json: boolean; dataDir?: string }) => {
      const days = parseDays(opts.olderThan);
      return withContext(opts, async (ctx) => {
        const scope = ctx.operator.pruneScope(days, ctx.clock.now().getTime());
        let removed = 0;
        for (const id of scope.broadcasts) {
          for (let n = ctx.operator.pruneDeliveries(id, PRUNE_CHUNK); n > 0; n = ctx.operator.pruneDeliveries(id, PRUNE_CHUNK)) {
            removed += n;
            await Bun.sleep(2); // the server's writes get their turn
          }
        }
        const cutoff = new Date(scope.completedBefore).toISOString();
        // What customers texted back is kept replyRetentionDays (the setting), whatever --older-than says.
        const replies = ctx.services.inbox.prune();
        const kept = scope.keptTracked;
        if (opts.json) {
          const keptWithLinksOrCoupons = { broadcasts: kept, completedAfter: new Date(scope.trackedBefore).toISOString() };
          printJson({ completedBefore: cutoff, broadcasts: scope.broadcasts, deliveriesRemoved: removed, consentEventsRemoved: 0, replies, keptWithLinksOrCoupons });
        } else {
          process.stdout.write(
            `Removed ${removed} delivery row(s) of ${scope.broadcasts.length} broadcast(s) completed before ${cutoff}; their totals stay in the history. ` +
              "Consent records are never pruned.\n" +
              (kept.length ? keptLine(kept, scope.trackedBefore) : "") +
              `Cleared the text of ${replies.bodiesCleared} stored reply(ies) and removed ${replies.mediaRemoved} media file(s) received before ${replies.before} (setting replyRetentionDays).\n`,
          );
        }
        // Partly done: everything asked for went but the rows the 90-day rule keeps (listed above).
        if (kept.length) process.exitCode = EXIT_PARTIAL;
      });
    });
}
