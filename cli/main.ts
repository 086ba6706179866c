import { Command } from "commander";
import { ConfigError } from "../src/config.ts";
import { AppError } from "../src/errors.ts";
import { VERSION } from "../src/http/routes/health.ts";
import { businessTypesCommand } from "./commands/business-types.ts";
import { posterCommand } from "./commands/poster.ts";
import { customersCommand } from "./commands/customers.ts";
import { businessesCommand } from "./commands/businesses.ts";
import { serveCommand } from "./commands/serve.ts";
import { usersCommand } from "./commands/users.ts";
import { examples } from "./context.ts";

export function buildProgram(): Command {
  return new Command("nearcast")
    .description("Nearcast: QR subscriptions and SMS/WhatsApp promotions for local shops, in one file.")
    .version(VERSION)
    .addHelpText(
      "after",
      examples(
        "nearcast serve --port 3000 --data-dir ./data",
        "nearcast users create --email admin@shop.com --password 's3cret!' --admin",
        "nearcast business-types add --name Bakery",
        "nearcast <command> --help",
      ),
    )
    .addCommand(serveCommand())
    .addCommand(usersCommand())
    .addCommand(businessTypesCommand())
    .addCommand(businessesCommand())
    .addCommand(posterCommand())
    .addCommand(customersCommand());
}

/** One line for a mistake the user can fix; no stack traces. */
function fail(err: unknown): never {
  if (err instanceof ConfigError || err instanceof AppError) {
    const fields = err instanceof AppError && err.fields ? Object.values(err.fields) : [];
    const extra = fields.filter((f) => f !== err.message);
    process.stderr.write(`nearcast: ${[err.message, ...extra].join("; ")}\n`);
    process.exit(2);
  }
  const e = err as Error;
  process.stderr.write(`nearcast: ${e?.message ?? String(err)}\n`);
  process.exit(1);
}

if (import.meta.main) {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (err) {
    fail(err);
  }
}
