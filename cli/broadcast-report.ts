// `nearcast broadcast report <id>`: one CSV line per recipient (the API's BroadcastReport), and the reasons
// `broadcast status` prints under the counts, so the owner sees why each skip or failure happened.
import { Command } from "commander";
import type { NotSentReason } from "../src/services/broadcasts/delivery-report.ts";
import { OPERATOR } from "../src/services/principal.ts";
import { dataDirOption, examples, parseId, withContext } from "./context.ts";

/** "Why not sent:" then one line per reason: "  Skipped  3  Not sent: the customer unsubscribed ..." */
export function printNotSentReasons(reasons: NotSentReason[]): void {
  if (reasons.length === 0) return;
  process.stdout.write("Why not sent:\n");
  const width = Math.max(...reasons.map((r) => String(r.count).length));
  for (const r of reasons) process.stdout.write(`  ${r.status.padEnd(9)} ${String(r.count).padStart(width)}  ${r.reason}\n`);
}

export function reportCommand(): Command {
  return new Command("report")
    .description("print a broadcast's report as CSV: phone, channel, status (Delivered, Failed, Skipped, Cancelled...), reason")
    .argument("<id>", "broadcast id (nearcast broadcast list)")
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast broadcast report 12 > broadcast-12.csv"))
    .action((rawId: string, opts: { dataDir?: string }) => {
      const id = parseId(rawId);
      return withContext(opts, (ctx) => {
        process.stdout.write(ctx.services.broadcasts.reportCsv(OPERATOR, id).csv);
      });
    });
}
