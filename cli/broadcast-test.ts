// `nearcast broadcast test`: one test message of a business to a number, as subscribers would get it (a WhatsApp
// template with its variables, or the text), then its outcome: the status callbacks reach the running server, which
// writes them where this command reads them, for at most --wait-seconds (issue 23 item 6).
import { Command, Option } from "commander";
import type { AppContext } from "../src/context.ts";
import { testOutcomeText, type TestStatus } from "../src/schemas/test-send.ts";
import { OPERATOR } from "../src/services/principal.ts";
import { templateInput } from "./broadcast-send.ts";
import { dataDirOption, examples, parseId, withContext } from "./context.ts";
import { EXIT_FAILURE } from "./exit-codes.ts";

interface TestOptions {
  business: string;
  to: string;
  channel: "sms" | "whatsapp";
  message: string;
  template?: string;
  var: string[];
  contentVariables?: string;
  wait: boolean;
  waitSeconds: string;
  dataDir?: string;
}

const POLL_MS = 500;

/** Reads the test until it is Delivered or Failed, or `seconds` pass; the last status read. */
async function waitForOutcome(ctx: AppContext, id: number, seconds: number): Promise<TestStatus> {
  const until = Date.now() + seconds * 1000;
  let status = ctx.services.testOutcome.status(OPERATOR, id);
  while (!status.final && Date.now() < until) {
    await Bun.sleep(POLL_MS);
    status = ctx.services.testOutcome.status(OPERATOR, id);
  }
  return status;
}

async function run(opts: TestOptions): Promise<void> {
  const businessId = parseId(opts.business, "--business");
  const seconds = parseId(opts.waitSeconds, "--wait-seconds");
  await withContext(opts, async (ctx) => {
    const res = await ctx.services.testSend.sendAsOperator({
      businessId: String(businessId),
      to: opts.to,
      channel: opts.channel,
      messageText: opts.message,
      ...templateInput(opts),
    });
    process.stdout.write(`${res.message} (test ${res.testId})\n`);
    if (res.result === "failed") {
      process.exitCode = EXIT_FAILURE;
      return;
    }
    if (!opts.wait) return;
    process.stderr.write(`Waiting up to ${seconds} s for the delivery report...\n`);
    const status = await waitForOutcome(ctx, res.testId, seconds);
    const line = testOutcomeText(status);
    process.stdout.write(
      status.final ? `${line}\n` : `${line}: no delivery report within ${seconds} s (reports reach the running server; is \`nearcast serve\` up and its public URL reachable?)\n`,
    );
    if (status.status === "Failed") process.exitCode = EXIT_FAILURE;
  });
}

export function testCommand(): Command {
  return new Command("test")
    .description("send one test message of a business to a number, as subscribers get it, and wait for its outcome")
    .requiredOption("--business <id>", "business id (nearcast businesses list)")
    .requiredOption("--to <phone>", "the number to send the test to, e.g. +14155550123")
    .requiredOption("--message <text>", "the message text (an SMS sends it; a WhatsApp template sends the template)")
    .addOption(new Option("--channel <channel>", "sms or whatsapp").choices(["sms", "whatsapp"]).default("sms"))
    .option("--template <sid>", "WhatsApp: the approved template (HX…) the broadcast would use")
    .option("--var <n=value>", "a template variable, e.g. --var 1=Fresh (repeat for each)", (v: string, all: string[]) => [...all, v], [] as string[])
    .option("--content-variables <json>", 'the template variables as one JSON object (instead of --var)')
    .option("--no-wait", "print the provider's answer and return without waiting for the delivery report")
    .option("--wait-seconds <n>", "how long to wait for the delivery report", "60")
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples(
        'nearcast broadcast test --business 3 --to +14155550123 --message "2 for 1 bagels"',
        'nearcast broadcast test --business 3 --to +447700900123 --channel whatsapp --template HX0123… --var 1="Rosa\'s" --message "Fresh bread"',
      ),
    )
    .action((opts: TestOptions) => run(opts));
}
