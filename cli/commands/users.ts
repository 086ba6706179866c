import { Command } from "commander";
import { RESET_TTL_MS } from "../../src/services/auth.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, printJson, printTable, usageExit, withContext } from "../context.ts";

export function usersCommand(): Command {
  const users = new Command("users").description("manage accounts").exitOverride(usageExit).addHelpText(
    "after",
    examples(
      "nearcast users create --email owner@shop.com --password 's3cret!' --first-name Ana --last-name Ruiz",
      "nearcast users create --email admin@shop.com --password 's3cret!' --admin",
      "nearcast users list --json",
      "nearcast users reset-password --email owner@shop.com",
    ),
  );

  users
    .command("create")
    .description("create an account (use --admin for the first administrator)")
    .requiredOption("--email <email>", "login email")
    .requiredOption("--password <password>", "at least 6 characters")
    .option("--first-name <name>", "first name", "Admin")
    .option("--last-name <name>", "last name", "User")
    .option("--admin", "make this account an administrator", false)
    .option("--json", "print the created user as JSON", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast users create --email admin@shop.com --password 's3cret!' --admin"))
    .action((opts) =>
      withContext(opts, async (ctx) => {
        const user = await ctx.services.auth.createUser(
          { email: opts.email, password: opts.password, firstName: opts.firstName, lastName: opts.lastName },
          opts.admin ? "admin" : "owner",
        );
        if (opts.json) printJson(user);
        else process.stdout.write(`Created ${user.role} ${user.email} (id ${user.id})\n`);
      }, { database: "create" }),
    );

  users
    .command("list")
    .description("list accounts")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast users list", "nearcast users list --json | jq '.[].email'"))
    .action((opts) =>
      withContext(opts, (ctx) => {
        const list = ctx.services.auth.listUsers(OPERATOR);
        if (opts.json) printJson(list);
        else printTable(list.map((u) => ({ ...u, name: `${u.firstName} ${u.lastName}` })), ["id", "email", "name", "role", "createdAt"]);
      }),
    );

  users
    .command("reset-password")
    .description("print a one-time password reset link for an account, or set its password with --password")
    .requiredOption("--email <email>", "the account's login email")
    .option("--password <password>", "set this password now (at least 6 characters) and sign the account out everywhere")
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples(
        "nearcast users reset-password --email owner@shop.com",
        "nearcast users reset-password --email owner@shop.com --password 'n3w-s3cret'",
      ),
    )
    .action((opts) =>
      withContext(opts, async (ctx) => {
        if (opts.password !== undefined) {
          const user = await ctx.services.auth.setPassword(OPERATOR, { email: opts.email, password: opts.password });
          process.stdout.write(`Password set for ${user.email}; every session of the account was signed out.\n`);
          return;
        }
        const { link, user } = ctx.services.auth.resetLink(OPERATOR, { email: opts.email });
        process.stdout.write(
          `One-time reset link for ${user.email}, valid ${RESET_TTL_MS / 60_000} minutes (it works once; older links stop working):\n${link}\n`,
        );
      }),
    );

  return users;
}
