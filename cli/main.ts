import { Command } from "commander";
import { ConfigError } from "../src/config.ts";
import { AppError } from "../src/errors.ts";
import { VERSION } from "../src/version.ts";
import { examples, usageExit } from "./context.ts";
import { EXIT_CODES_HELP, EXIT_FAILURE, EXIT_USAGE } from "./exit-codes.ts";

/**
 * Every subcommand, in help order, as a loader: a run imports only the module of the command it runs (serve does
 * not evaluate the other commands' modules, and they do not load the HTTP server, its routes or the UI bundle).
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import("./commands/serve.ts")).serveCommand(),
  users: async () => (await import("./commands/users.ts")).usersCommand(),
  "business-types": async () => (await import("./commands/business-types.ts")).businessTypesCommand(),
  businesses: async () => (await import("./commands/businesses.ts")).businessesCommand(),
  poster: async () => (await import("./commands/poster.ts")).posterCommand(),
  customers: async () => (await import("./commands/customers.ts")).customersCommand(),
  broadcast: async () => (await import("./commands/broadcast.ts")).broadcastCommand(),
  settings: async () => (await import("./commands/settings.ts")).settingsCommand(),
  doctor: async () => (await import("./commands/doctor.ts")).doctorCommand(),
  registration: async () => (await import("./commands/registration.ts")).registrationCommand(),
  backup: async () => (await import("./commands/backup.ts")).backupCommand(),
  restore: async () => (await import("./commands/backup.ts")).restoreCommand(),
  migrate: async () => (await import("./commands/backup.ts")).migrateCommand(),
  prune: async () => (await import("./commands/prune.ts")).pruneCommand(),
  inbox: async () => (await import("./commands/inbox.ts")).inboxCommand(),
  coupons: async () => (await import("./commands/coupons.ts")).couponsCommand(),
  "install-service": async () => (await import("./commands/install-service.ts")).installServiceCommand(),
};

/** The command line: every subcommand, or only those named in `only` (what a run needs). */
export async function buildProgram(only?: readonly string[]): Promise<Command> {
  const program = new Command("nearcast")
    .description("Nearcast: QR subscriptions and SMS/WhatsApp promotions for local shops, in one file.")
    .version(VERSION)
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      examples(
        "nearcast serve --port 3000 --data-dir ./data",
        "nearcast users create --email admin@shop.com --password 's3cret!' --admin",
        "nearcast business-types add --name Bakery",
        "nearcast backup && nearcast restore data/backups/nearcast-20261126T031500Z.tar.gz --data-dir ./data",
        "nearcast <command> --help",
      ) + EXIT_CODES_HELP,
    );
  const names = Object.keys(COMMANDS).filter((name) => !only || only.includes(name));
  for (const command of await Promise.all(names.map((name) => COMMANDS[name]!()))) program.addCommand(command);
  return program;
}

/**
 * The subcommand argv names when it is a known one, else undefined: then the whole program is built (root help,
 * --version, `help <command>`, a mistyped command with commander's suggestion).
 */
export function commandOf(argv: readonly string[]): string | undefined {
  const first = argv.slice(2).find((arg) => !arg.startsWith("-"));
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? first : undefined;
}

/** One line for a mistake the user can fix; no stack traces. */
function fail(err: unknown): never {
  if (err instanceof ConfigError || err instanceof AppError) {
    const fields = err instanceof AppError && err.fields ? Object.values(err.fields) : [];
    const extra = fields.filter((f) => f !== err.message);
    process.stderr.write(`nearcast: ${[err.message, ...extra].join("; ")}\n`);
    process.exit(EXIT_USAGE);
  }
  const e = err as Error;
  process.stderr.write(`nearcast: ${e?.message ?? String(err)}\n`);
  process.exit(EXIT_FAILURE);
}

/** Runs the command line (only the module of the command it runs is loaded); an error it throws ends in fail(). */
export async function main(argv: readonly string[]): Promise<void> {
  process.umask(0o077); // every file and folder nearcast creates (data dir, database, WAL, uploads) is its user's alone
  const command = commandOf(argv);
  const program = await buildProgram(command === undefined ? undefined : [command]);
  await program.parseAsync([...argv]);
}

if (import.meta.main) main(process.argv).catch(fail);
