import { Command } from "commander";
import { AppError, ValidationError } from "../../src/errors.ts";
import { isSettingKey, SETTING_KEYS, type SettingKey, type SettingView } from "../../src/schemas/settings.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, printJson, printTable, usageExit, withContext } from "../context.ts";

// `nearcast settings get|set`: the same settings, checks and env lock as the Settings screen and PUT /api/settings.
// The running server reads the settings table on every use, so a value set here is in use there at once.

const KEYS_HELP = `keys: ${SETTING_KEYS.join(", ")}`;

function keyOf(raw: string): SettingKey {
  if (!isSettingKey(raw)) throw new ValidationError(`Unknown setting "${raw.slice(0, 60)}" (${KEYS_HELP})`);
  return raw;
}

/** What the terminal shows for a value: a secret never, only whether it is set. */
function shown(view: SettingView): string {
  if (view.secret) return view.set ? "(set)" : "(not set)";
  return view.value ?? "(not set)";
}

function sourceOf(view: SettingView): string {
  return view.source === "env" ? `env ${view.env}` : view.source;
}

export function settingsCommand(): Command {
  const cmd = new Command("settings")
    .description("show and change the server's settings (public URL, brand, Twilio, email)")
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `\nAn environment variable, when set, wins over the saved value and locks it.\n${KEYS_HELP}\n${examples(
        "nearcast settings get",
        "nearcast settings get publicUrl",
        "nearcast settings set publicUrl https://deals.example.com",
        'nearcast settings set brandName ""',
      )}`,
    );

  cmd
    .command("get")
    .description("print every setting with where its value comes from, or one setting's value alone")
    .argument("[key]", "one setting")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples("nearcast settings get", "nearcast settings get sendRate", "nearcast settings get --json", "nearcast settings get twilioAuthToken"),
    )
    .action((rawKey: string | undefined, opts) => {
      const key = rawKey === undefined ? undefined : keyOf(rawKey);
      return withContext(opts, (ctx) => {
        const view = ctx.services.settings.view(OPERATOR);
        if (key !== undefined) {
          if (opts.json) printJson(view[key]);
          // The value alone (for scripts); nothing for an unset setting, "(set)" or "(not set)" for a secret.
          else process.stdout.write(`${view[key].secret ? shown(view[key]) : (view[key].value ?? "")}\n`);
          return;
        }
        if (opts.json) printJson(view);
        else printTable(SETTING_KEYS.map((k) => ({ key: k, value: shown(view[k]), source: sourceOf(view[k]) })), ["key", "value", "source"]);
      });
    });

  cmd
    .command("set")
    .description('save a setting; "" removes the saved value (back to the default)')
    .argument("<key>", "the setting")
    .argument("<value>", 'its new value; "" clears it; - reads it from standard input (keeps a secret out of shell history)')
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples(
        "nearcast settings set publicUrl https://deals.example.com",
        'nearcast settings set brandName "Corner Deals"',
        "nearcast settings set sendRate 5",
        "printf %s \"$TOKEN\" | nearcast settings set twilioAuthToken -",
        'nearcast settings set smtpUrl ""',
      ),
    )
    .action(async (rawKey: string, rawValue: string, opts) => {
      const key = keyOf(rawKey);
      const value = rawValue === "-" ? (await Bun.stdin.text()).replace(/\r?\n$/, "") : rawValue;
      return withContext(opts, (ctx) => {
        let view: SettingView;
        try {
          view = ctx.services.settings.update(OPERATOR, { [key]: value })[key];
        } catch (err) {
          // One line that names the key: "publicUrl: Public URL must be ..." or "...: NEARCAST_PUBLIC_URL is set ...".
          if (err instanceof AppError && err.status === 400) throw new ValidationError(`${key}: ${err.fields?.[key] ?? err.message}`);
          throw err;
        }
        if (value === "") process.stdout.write(`Cleared ${key}${view.value !== null ? ` (now ${view.value}, the ${view.source})` : ""}\n`);
        else process.stdout.write(`Saved ${key}${view.secret ? " (secret, not shown)" : `: ${view.value}`}\n`);
      });
    });

  return cmd;
}
