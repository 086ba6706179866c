import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { bar, ProgressPrinter } from "../progress-bar.ts";
import { fileProblem } from "../file-errors.ts";
import { Command } from "commander";
import { ValidationError } from "../../src/errors.ts";
import { readImportFile } from "../../src/lib/csv-import.ts";
import { EXIT_PARTIAL } from "../exit-codes.ts";
import type { ImportSummary } from "../../src/services/customers-operator.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, parseId, printJson, printTable, usageExit, withContext } from "../context.ts";

const n = (x: number) => Math.round(x).toLocaleString("en-US");

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function printSummary(s: ImportSummary, file: string): void {
  const out: string[] = [];
  out.push(`Imported ${file} into ${s.business.name} (#${s.business.id}):`);
  out.push(
    `  ${s.added.length} added, ${s.readded.length} re-added, ${s.already.length} already subscribed, ` +
      `${s.skipped.length} skipped, ${plural(s.invalid.length, "invalid row")}`,
  );
  if (s.welcomed !== undefined) out.push(`  ${plural(s.welcomed, "welcome text")} queued (the server sends them, paced).`);
  if (s.invalid.length) {
    out.push("Invalid rows (not imported):");
    for (const r of s.invalid) out.push(`  line ${r.line}: ${r.message} (got ${JSON.stringify(r.value)})`);
  }
  if (s.skipped.length) {
    out.push("Skipped:");
    for (const r of s.skipped) out.push(`  line ${r.line}: ${r.phone} ${r.reason}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

export function customersCommand(): Command {
  const cmd = new Command("customers")
    .description("list, import and erase the subscribers of a business")
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      examples(
        "nearcast customers list --business 3",
        "nearcast customers import --business 3 contacts.csv",
        'nearcast customers forget "+1 415 555 0134"',
      ),
    );

  cmd
    .command("list")
    .description("list the subscribers of one business (active and unsubscribed; not those the owner removed)")
    .requiredOption("--business <id>", "business id")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast customers list --business 3", "nearcast customers list --business 3 --json | jq '.[].phone'"))
    .action((opts) => {
      const businessId = parseId(opts.business, "--business");
      return withContext(opts, (ctx) => {
        const { subscribers } = ctx.services.customers.listForBusiness(businessId);
        const rows = subscribers.map((s) => ({
          id: s.customerId,
          phone: s.phone,
          contactPreference: s.contactPreference,
          status: s.status,
          source: s.source,
          subscribedAt: s.consentAt.toISOString(),
          unsubscribedAt: s.unsubscribedAt?.toISOString() ?? null,
        }));
        if (opts.json) printJson(rows);
        else
          printTable(
            rows.map((r) => ({ ...r, preference: r.contactPreference, subscribed: r.subscribedAt.slice(0, 10) })),
            ["id", "phone", "preference", "status", "source", "subscribed"],
          );
      });
    });

  cmd
    .command("consent")
    .description("the consent evidence of one business: phone, event, source, time, ip, user agent, text shown")
    .requiredOption("--business <id>", "business id")
    .option("--csv", "print as CSV (the same file as the web's Export consent)", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast customers consent --business 3 --csv > consent.csv", "nearcast customers consent --business 3"))
    .action((opts) => {
      const businessId = parseId(opts.business, "--business");
      return withContext(opts, async (ctx) => {
        if (opts.csv) {
          for await (const part of ctx.services.businesses.consentCsv(OPERATOR, businessId).chunks) process.stdout.write(part);
          return;
        }
        const rows: Record<string, string>[] = [];
        for await (const page of ctx.services.businesses.consentEvents(OPERATOR, businessId).pages) {
          rows.push(...page.map((e) => ({ phone: e.phone, event: e.kind, source: e.source, time: e.at.toISOString(), ip: e.ip ?? "" })));
        }
        printTable(rows, ["phone", "event", "source", "time", "ip"]);
      });
    });

  cmd
    .command("import")
    .description("add the people in a CSV file (header: phone,contactPreference) to a business, source 'import'")
    .requiredOption("--business <id>", "business id")
    .argument("<file>", "CSV file with the header phone,contactPreference")
    .option("--json", "print the summary as JSON", false)
    .option("--welcome", "send the people added a welcome text (the opt-in confirmation), paced like a broadcast", false)
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      `${examples("nearcast customers import --business 3 contacts.csv", "nearcast customers import --business 3 contacts.csv --welcome", "nearcast customers import --business 3 contacts.csv --json")}
Rows with a problem are listed with their line number and left out. Rows are written in short transactions
(250 at a time, so a running server keeps answering), with a progress bar on stderr; a run that stops half-way
can simply be run again: what it wrote shows as already subscribed. People who unsubscribed from the business are
not re-added.
contacts.csv:
  phone,contactPreference
  (415) 555-0134,SMS
  +44 7911 123456,WhatsApp
`,
    )
    .action((file: string, opts) => {
      const businessId = parseId(opts.business, "--business");
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (e) {
        throw new ValidationError(`cannot read ${file}: ${fileProblem(e)}`);
      }
      const rows = readImportFile(text, file);
      return withContext(opts, async (ctx) => {
        const progress = new ProgressPrinter();
        const started = performance.now();
        const onProgress = ({ done, total }: { done: number; total: number }) => {
          const perSecond = done / Math.max(0.001, (performance.now() - started) / 1000);
          progress.update(`${bar(done / total)} ${n(done)}/${n(total)} rows · ${n(perSecond)} rows/s`, done === total);
        };
        try {
          const summary = await ctx.services.customers.importRows(businessId, rows, basename(file), { welcome: opts.welcome, onProgress });
          progress.done();
          if (opts.json) printJson(summary);
          else printSummary(summary, basename(file));
          // Partly done: the valid rows are in, the invalid ones (listed above, with their lines) are not.
          if (summary.invalid.length > 0) process.exitCode = EXIT_PARTIAL;
        } catch (e) {
          progress.done();
          throw e;
        }
      });
    });

  cmd
    .command("forget")
    .description("erase a person completely: customer row, subscriptions, consent history, link clicks, coupon redemptions and what they texted (no question asked)")
    .argument("<phone>", "the phone number, in any common format")
    .option("--json", "print what was erased as JSON", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples('nearcast customers forget "(415) 555-0134"', "nearcast customers forget +14155550134 --json"))
    .action((phone: string, opts) => {
      return withContext(opts, (ctx) => {
        const replies = ctx.services.inbox.forgetPhone(phone);
        const result = { ...ctx.services.customers.forget(phone), replies };
        if (opts.json) printJson(result);
        else if (!result.erased) process.stdout.write(`Nothing to erase: no customer has the phone number ${result.phone}.\n`);
        else {
          const where = result.businesses.length ? ` (${result.businesses.join(", ")})` : "";
          process.stdout.write(
            `Erased ${result.phone} (customer ${result.customerId}): the customer record, ` +
              `${plural(result.subscriptions, "subscription")}${where}, ${plural(result.consentEvents, "consent event")}, ` +
              `${plural(result.linkClicks, "link click")}, ${plural(result.couponRedemptions, "coupon redemption")} and ${replies} stored ${replies === 1 ? "reply" : "replies"}.\n`,
          );
        }
      });
    });

  return cmd;
}
