import { Command } from "commander";
import type { RegistrationKit } from "../../src/schemas/registration.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, parseId, printJson, usageExit, withContext } from "../context.ts";

/** The kit as labelled lines, in the order Twilio's forms ask; a missing URL says so instead of printing nothing. */
export function formatKit(kit: RegistrationKit): string {
  const url = (u: string | null) => u ?? "(missing: no public URL saved)";
  const lines: [string, string][] = [
    ["Business", `${kit.businessName} (id ${kit.businessId})`],
    ["Use case", kit.useCase],
    ["Description", kit.description],
    ["Opt-in type", kit.optInType],
    ["Opt-in workflow", kit.optInDescription],
    ["Opt-in image URL", url(kit.optInImageUrl)],
    ["Program page URL", url(kit.programUrl)],
    ["Privacy URL", url(kit.privacyUrl)],
    ["Terms URL", url(kit.termsUrl)],
    ...kit.sampleMessages.map((s, i): [string, string] => [`Sample message ${i + 1}`, s]),
    ["Monthly volume", `${kit.monthlyVolume} (form: ${kit.monthlyVolumeTier}; ${kit.monthlyVolumeBasis})`],
    ...kit.keywords.map((k): [string, string] => [`Keyword ${k.keyword}`, k.reply]),
    ["Sender", kit.sender.number ? `${kit.sender.number}${kit.sender.us ? ` (US, ${kit.sender.registration})` : ""}` : "(no SMS sender number set)"],
  ];
  const width = Math.max(...lines.map(([label]) => label.length)) + 1;
  const out = lines.map(([label, value]) => `${`${label}:`.padEnd(width)}  ${value}\n`);
  if (kit.problems.length) out.push(`\nProblems (${kit.problems.length}):\n`, ...kit.problems.map((p) => `  - ${p}\n`));
  return out.join("");
}

export function registrationCommand(): Command {
  return new Command("registration")
    .description("print the fields of Twilio's toll-free verification and 10DLC campaign forms for a business, filled in")
    .requiredOption("--business <id>", "business id")
    .option("--json", "print the kit as JSON (useCase, description, optInType, ...)", false)
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `${examples("nearcast registration --business 3", "nearcast registration --business 3 --json > kit.json")}
Exits 0 even when the kit lists problems (a missing public URL, samples without STOP): they are printed last.
`,
    )
    .action((opts) => {
      const id = parseId(opts.business, "--business");
      return withContext(opts, (ctx) => {
        const kit = ctx.services.registration.kit(OPERATOR, id);
        if (opts.json) printJson(kit);
        else process.stdout.write(formatKit(kit));
      });
    });
}
