import { Command } from "commander";
import { RESET_TTL_MS } from "../../src/services/auth.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { addApprovalCommands } from "./users-approval.ts";
import { dataDirOption, examples, printJson, printTable, usageExit, withContext } from "../context.ts";
import { readPassword, withPasswordOptions } from "../read-password.ts";

export function usersCommand(): Command {
  const users = new Command("users").description("manage accounts").exitOverride(usageExit).addHelpText(
    "after",
    examples(
      "nearcast users create --email owner@shop.com --first-name Ana --last-name Ruiz   # asks for the password",
      "printf %s \"$PASSWORD\" | nearcast users create --email admin@shop.com --admin --password-stdin",
      "nearcast users list --json",
      "nearcast users approve owner@shop.com",
      "nearcast users reset-password --email owner@shop.com",
    ),
  );

  const create = users
    .command("create")
    .description("create an account (use --admin for the first administrator); asks for its password (at least 6 characters)")
    .requiredOption("--email <email>", "login email");
  withPasswordOptions(create, "the password")
    .option("--first-name <name>", "first name", "Admin")
    .option("--last-name <name>", "last name", "User")
    .option("--admin", "make this account an administrator", false)
    .option("--json", "print the created user as JSON", false)
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples("nearcast users create --email admin@shop.com --admin   # asks for the password", "printf %s \"$PASSWORD\" | nearcast users create --email admin@shop.com --admin --password-stdin"),
    )
    .action(async (opts) => {
      const password = await readPassword(opts, "nearcast users create --email ...");
      return withContext(opts, async (ctx) => {
        const user = await ctx.services.auth.createUser(
          { email: opts.email, password, firstName: opts.firstName, lastName: opts.lastName },
          opts.admin ? "admin" : "owner",
        );
        if (opts.json) printJson(user);
        else process.stdout.write(`Created ${user.role} ${user.email} (id ${user.id})\n`);
      }, { database: "create" });
    });

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
        else printTable(list.map((u) => ({ ...u, name: `${u.firstName} ${u.lastName}` })), ["id", "email", "name", "role", "status", "createdAt"]);
      }),
    );

  const resetPassword = users
    .command("reset-password")
    .description("print a one-time password reset link for an account, or set its password now (--set asks for it)")
    .requiredOption("--email <email>", "the account's login email")
    .option("--set", "set a new password now (asked for, at least 6 characters) and sign the account out everywhere");
  withPasswordOptions(resetPassword, "the new password (with it, no link is printed)")
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples(
        "nearcast users reset-password --email owner@shop.com",
        "nearcast users reset-password --email owner@shop.com --set   # asks for the new password",
        "printf %s \"$PASSWORD\" | nearcast users reset-password --email owner@shop.com --password-stdin",
      ),
    )
    .action(async (opts) => {
      const setting = opts.set || opts.password !== undefined || opts.passwordStdin;
      const password = setting ? await readPassword(opts, "nearcast users reset-password --email ...") : undefined;
      return withContext(opts, async (ctx) => {
        if (password !== undefined) {
          const user = await ctx.services.auth.setPassword(OPERATOR, { email: opts.email, password });
          process.stdout.write(`Password set for ${user.email}; every session of the account was signed out.\n`);
          return;
        }
        const { link, user } = ctx.services.auth.resetLink(OPERATOR, { email: opts.email });
        process.stdout.write(
          `One-time reset link for ${user.email}, valid ${RESET_TTL_MS / 60_000} minutes (it works once; older links stop working):\n${link}\n`,
        );
      });
    });

  addApprovalCommands(users);
  return users;
}
