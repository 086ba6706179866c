import { Command } from "commander";
import type { AppContext } from "../../src/context.ts";
import { NotFoundError } from "../../src/errors.ts";
import type { Business } from "../../src/schemas/businesses.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, parseId, printJson, printTable, usageExit, withContext } from "../context.ts";
import { UNKNOWN_TYPE } from "../../src/schemas/texts.ts";
import { sampleDealText, textToJoinLine } from "../../src/schemas/poster-text.ts";

/** One line of a table cell: the first line of the text, cut to `max` characters. */
function cell(text: string, max = 40): string {
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  return line.length > max || line !== text ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** A business as the operator sees it: the API's full record plus the owner's email. */
type Listed = Business & { ownerEmail: string | null };

/** Every account's email by its id. */
function emailsById(ctx: AppContext): Map<number, string> {
  return new Map(ctx.services.auth.listUsers(OPERATOR).map((u) => [u.id, u.email]));
}

export function businessesCommand(): Command {
  const cmd = new Command("businesses")
    .description("inspect businesses (every owner's) and set their join keyword")
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      examples(
        "nearcast businesses list",
        "nearcast businesses list --owner owner@shop.com --json",
        "nearcast businesses show 3",
        "nearcast businesses update 3 --keyword BAGEL",
      ),
    );

  cmd
    .command("list")
    .description("list businesses, newest first, active and inactive")
    .option("--owner <email>", "only the businesses of this account")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples(
        "nearcast businesses list",
        "nearcast businesses list --owner owner@shop.com",
        "nearcast businesses list --json | jq '.[] | select(.isActive) | .name'",
      ),
    )
    .action((opts: { owner?: string; json: boolean; dataDir?: string }) =>
      withContext(opts, (ctx) => {
        const emails = emailsById(ctx);
        let ownerId: number | undefined;
        if (opts.owner !== undefined) {
          const email = opts.owner.trim();
          ownerId = [...emails].find(([, e]) => e === email.toLowerCase())?.[0];
          if (ownerId === undefined) throw new NotFoundError(`No account with the email ${email}`);
        }
        const list = ctx.services.businesses.list(OPERATOR, { ownerId });
        const rows: Listed[] = list.map((b) => ({ ...b, ownerEmail: emails.get(b.ownerId) ?? null }));
        if (opts.json) printJson(rows);
        else
          printTable(
            rows.map((b) => ({
              id: b.id,
              name: cell(b.name),
              type: cell(b.businessType?.name ?? UNKNOWN_TYPE, 24),
              owner: b.ownerEmail ?? `#${b.ownerId}`,
              status: b.isActive ? "active" : "inactive",
              createdAt: b.createdAt.slice(0, 10),
            })),
            ["id", "name", "type", "owner", "status", "createdAt"],
          );
      }),
    );

  cmd
    .command("show")
    .description("show one business with every field")
    .argument("<id>", "business id")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast businesses show 3", "nearcast businesses show 3 --json"))
    .action((rawId: string, opts: { json: boolean; dataDir?: string }) => {
      const id = parseId(rawId);
      return withContext(opts, (ctx) => {
        const b = ctx.services.businesses.get(OPERATOR, id);
        const full: Listed = { ...b, ownerEmail: emailsById(ctx).get(b.ownerId) ?? null };
        if (opts.json) {
          printJson(full);
          return;
        }
        const lines: [string, string][] = [
          ["ID", String(full.id)],
          ["Name", full.name],
          ["Status", full.isActive ? "active" : "inactive"],
          ["Type", full.businessType ? `${full.businessType.name} (${full.businessTypeId})` : `${UNKNOWN_TYPE} (${full.businessTypeId})`],
          ["Owner", full.ownerEmail ? `${full.ownerEmail} (${full.ownerId})` : `#${full.ownerId}`],
          ["Address", full.address],
          ["Phone", full.phone],
          ["Sample product", full.sampleProductText],
          ["QR message", full.qrMessage],
          ["Success message", full.successMessage],
          // Never set: the poster prints the type's keyword deal; cleared: no offer at all.
          ["Poster offer", full.posterOffer === "" ? "(none)" : full.posterOffer ?? `${sampleDealText(full.businessType?.name)} (the type's deal)`],
          ["Per week", `up to ${full.messagesPerWeek} messages`],
          ["Join keyword", full.keyword ?? "(none)"],
          ["Time zone", full.timeZone ?? "(the server's)"],
          ["Logo", full.logoImagePath ?? "(none)"],
          ["Sample image", full.sampleImagePath ?? "(none)"],
          ["Subscribe link", ctx.services.qrCodes.subscribeUrl(full.id)],
          ["Created", full.createdAt],
        ];
        const width = Math.max(...lines.map(([k]) => k.length));
        for (const [k, v] of lines) process.stdout.write(`${`${k}:`.padEnd(width + 2)}${v.replace(/\r?\n/g, " ")}\n`);
      });
    });

  cmd
    .command("update")
    .description("set a business's join keyword (people text it to the SMS number to subscribe); \"\" clears it")
    .argument("<id>", "business id")
    .requiredOption("--keyword <word>", "2 to 20 letters or digits, any case; \"\" for none")
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast businesses update 3 --keyword BAGEL", 'nearcast businesses update 3 --keyword ""'))
    .action((rawId: string, opts: { keyword: string; dataDir?: string }) => {
      const id = parseId(rawId);
      return withContext(opts, (ctx) => {
        const b = ctx.services.businesses.setKeyword(OPERATOR, id, opts.keyword);
        const line = textToJoinLine(b.keyword, ctx.services.settings.current().twilio?.from);
        const said = line ? ` Posters and the subscribe page now say "${line}".` : "";
        process.stdout.write(b.keyword ? `${b.name}: join keyword ${b.keyword}.${said}\n` : `${b.name}: no join keyword.\n`);
      });
    });

  return cmd;
}
