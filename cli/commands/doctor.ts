import { Command } from "commander";
import type { ChecklistItem } from "../../src/schemas/checklist.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, printJson, usageExit, withContext } from "../context.ts";

/** What each status prints as, padded to one width so the titles line up. */
const MARK: Record<ChecklistItem["status"], string> = { green: "ok", amber: "warn", red: "FAIL" };

/** The checklist as the terminal shows it: "ok    Public URL      https://...", one line per item. */
export function formatChecklist(items: ChecklistItem[]): string {
  const markWidth = Math.max(...Object.values(MARK).map((m) => m.length));
  const titleWidth = Math.max(...items.map((i) => i.title.length));
  return items.map((i) => `${MARK[i.status].padEnd(markWidth)}  ${`${i.title}:`.padEnd(titleWidth + 1)}  ${i.detail}\n`).join("");
}

export function doctorCommand(): Command {
  return new Command("doctor")
    .description("check this install: public URL, messages (asks Twilio), inbound webhook, email, business types, the messaging program (fetches /terms and /privacy), carrier registration")
    .option("--json", "print the checklist as JSON", false)
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `\nExits 1 when any line is FAIL, 0 otherwise (warnings included).\n${examples("nearcast doctor", "nearcast doctor --json --data-dir /srv/nearcast")}`,
    )
    .action((opts) =>
      withContext(opts, async (ctx) => {
        const items = await ctx.services.checklist.items(OPERATOR);
        if (opts.json) printJson(items);
        else process.stdout.write(formatChecklist(items));
        if (items.some((i) => i.status === "red")) process.exitCode = 1;
      }),
    );
}
