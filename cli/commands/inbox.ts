// `nearcast inbox list|show|reply` (issue 24): what customers texted back, as the operator (every business).
import { Command } from "commander";
import type { AppContext } from "../../src/context.ts";
import type { ConversationRow, ThreadItem } from "../../src/schemas/inbox.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, parseId, printJson, printTable, usageExit, withContext } from "../context.ts";

/** Every conversation (of one business), page after page. */
function allConversations(ctx: AppContext, businessId: number | undefined): ConversationRow[] {
  const rows: ConversationRow[] = [];
  let cursor: string | null | undefined;
  do {
    const query = { limit: "200", ...(businessId ? { businessId: String(businessId) } : {}), ...(cursor ? { cursor } : {}) };
    const page = ctx.services.inbox.list(OPERATOR, query);
    rows.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

function printThread(items: ThreadItem[]): void {
  for (const i of items) {
    const who = i.direction === "in" ? "them" : i.kind === "ownerReply" ? "you" : i.kind;
    const status = i.status ? ` [${i.status}]` : "";
    const media = i.mediaUrls.length ? ` (+${i.mediaUrls.length} picture(s))` : "";
    process.stdout.write(`${i.at.slice(0, 16).replace("T", " ")}  ${i.channel.padEnd(8)} ${who}${status}: ${oneLine(i.body)}${media}\n`);
  }
}

export function inboxCommand(): Command {
  const cmd = new Command("inbox")
    .description("read and answer what customers texted back")
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      examples("nearcast inbox list", "nearcast inbox show --customer 12 --business 3", 'nearcast inbox reply --customer 12 --business 3 --message "Yes, until 4pm!"'),
    );

  cmd
    .command("list")
    .description("the conversations, unread first, then the newest")
    .option("--business <id>", "only this business")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .action((opts) => {
      const businessId = opts.business === undefined ? undefined : parseId(opts.business, "--business");
      return withContext(opts, (ctx) => {
        const rows = allConversations(ctx, businessId);
        if (opts.json) return printJson(rows);
        printTable(
          rows.map((r) => ({ ...r, customer: r.customerId, business: `${r.businessName} (#${r.businessId})`, at: r.lastMessageAt.slice(0, 16).replace("T", " "), last: oneLine(r.lastMessagePreview).slice(0, 50), state: r.stateText })),
          ["customer", "phone", "business", "channel", "unread", "at", "state", "last"],
        );
      });
    });

  cmd
    .command("show")
    .description("one conversation: their replies and what the business sent them (marks it read)")
    .requiredOption("--customer <id>", "customer id")
    .requiredOption("--business <id>", "business id")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .action((opts) => {
      const customerId = parseId(opts.customer, "--customer");
      const businessId = parseId(opts.business, "--business");
      return withContext(opts, (ctx) => {
        const c = ctx.services.inbox.get(OPERATOR, { customerId: String(customerId), businessId: String(businessId) });
        if (opts.json) return printJson(c);
        const v = c.conversation;
        process.stdout.write(`${v.phone} and ${v.businessName} (#${v.businessId}): ${v.stateText}, answers go by ${v.channel}\n`);
        printThread(c.items);
      });
    });

  cmd
    .command("reply")
    .description("answer one person (queued in the outbox; the server sends it, paced)")
    .requiredOption("--customer <id>", "customer id")
    .requiredOption("--business <id>", "business id")
    .requiredOption("--message <text>", "the answer")
    .option("--content-sid <HX…>", "a WhatsApp template (needed more than 24 hours after their last WhatsApp message)")
    .option("--content-variables <json>", "the template's variables, e.g. '{\"1\":\"Ana\"}'")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .action((opts) => {
      const customerId = parseId(opts.customer, "--customer");
      const businessId = parseId(opts.business, "--business");
      return withContext(opts, async (ctx) => {
        const body = { customerId, businessId, messageText: opts.message, contentSid: opts.contentSid ?? null, contentVariables: opts.contentVariables ?? null };
        const r = await ctx.services.inbox.reply(OPERATOR, body);
        if (opts.json) return printJson(r);
        process.stdout.write(`Queued your ${r.item.channel} answer (delivery ${r.item.id.replace("out-", "")}); the server sends it.\n`);
      });
    });

  return cmd;
}
