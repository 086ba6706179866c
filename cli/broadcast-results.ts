// `nearcast broadcast results <id>`: what a broadcast brought in (issue 25), as the results page shows it: a summary
// by default, the API's GetBroadcastResults JSON with --json, its ExportBroadcastResults CSV with --csv.
import { Command, Option } from "commander";
import { costLineText } from "../src/schemas/broadcast-estimate.ts";
import type { BroadcastResults } from "../src/schemas/broadcast-results.ts";
import { OPERATOR } from "../src/services/principal.ts";
import { dataDirOption, examples, parseId, printJson, withContext } from "./context.ts";

const percent = (rate: number | null) => (rate === null ? "" : ` (${(rate * 100).toFixed(1)}%)`);

/** The summary's lines: label and value. */
export function resultsLines(r: BroadcastResults): [string, string][] {
  const cost = r.cost === null ? "no cost in the sandbox" : `$${r.cost.toFixed(4)}${r.costLines.length ? ` (${r.costLines.map(costLineText).join(", ")})` : ""}`;
  const offer = r.coupon.kind === "shared" ? `shared code ${r.coupon.code}` : r.coupon.kind === "unique" ? "a unique code per person" : "none";
  const busiest = [...r.clicksOverTime].sort((a, b) => b.clicks - a.clicks || a.hour - b.hour)[0];
  return [
    ["Broadcast", String(r.broadcastId)],
    ["Business", `${r.businessName} (${r.businessId})`],
    ["Started", r.startedAt ?? "not yet"],
    ["Message", r.messageText.replace(/\r?\n/g, " ")],
    ["Recipients", String(r.recipients)],
    ["Delivered", String(r.delivered)],
    ["Sent", String(r.sent)],
    ["Failed", String(r.failed)],
    ["Skipped", String(r.skipped)],
    ["Opt-outs (72 h)", String(r.optOuts)],
    ["Cost", cost],
    ["Links tracked", r.trackLinks ? "yes" : "no"],
    ["Clicks", `${r.clicks} by ${r.uniqueClickers} ${r.uniqueClickers === 1 ? "person" : "people"}${percent(r.clickRate)}`],
    ...(busiest && busiest.clicks > 0 ? [["Busiest hour", `hour ${busiest.hour + 1} after the start: ${busiest.clicks} clicks`] as [string, string]] : []),
    ["Offer", offer],
    ["Redemptions", `${r.redemptions} by ${r.redeemers} ${r.redeemers === 1 ? "person" : "people"}${percent(r.redemptionRate)}`],
  ];
}

function printSummary(r: BroadcastResults): void {
  const lines = resultsLines(r);
  const width = Math.max(...lines.map(([k]) => k.length));
  for (const [k, v] of lines) process.stdout.write(`${`${k}:`.padEnd(width + 2)}${v}\n`);
  if (r.people.length === 0) return;
  process.stdout.write(`Who clicked or redeemed${r.peopleTruncated ? ` (the latest ${r.people.length})` : ""}:\n`);
  for (const p of r.people) {
    const did = [p.clicks > 0 ? `${p.clicks} click${p.clicks === 1 ? "" : "s"} from ${p.firstClickAt}` : "", p.redeemedAt ? `redeemed ${p.redeemedAt}` : ""].filter(Boolean);
    process.stdout.write(`  ${p.phoneMasked}  ${did.join(", ")}\n`);
  }
}

export function resultsCommand(): Command {
  return new Command("results")
    .description("what a broadcast brought in: delivered, opt-outs, cost, clicks, coupons redeemed, and who")
    .argument("<id>", "broadcast id (nearcast broadcast list)")
    .addOption(new Option("--json", "print as JSON (the API's GetBroadcastResults shape)").conflicts("csv"))
    .addOption(new Option("--csv", "print one CSV line per recipient (the API's ExportBroadcastResults)"))
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast broadcast results 12", "nearcast broadcast results 12 --json | jq .clicks", "nearcast broadcast results 12 --csv > results-12.csv"))
    .action((rawId: string, opts: { json?: boolean; csv?: boolean; dataDir?: string }) => {
      const id = parseId(rawId);
      return withContext(opts, (ctx) => {
        if (opts.csv) return void process.stdout.write(ctx.services.broadcasts.resultsCsv(OPERATOR, id).csv);
        const r = ctx.services.broadcasts.results(OPERATOR, id);
        if (opts.json) printJson(r);
        else printSummary(r);
      });
    });
}
