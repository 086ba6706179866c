import type { Command } from "commander";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, withContext } from "../context.ts";

/** `nearcast users approve EMAIL` and `users refuse EMAIL`: what the admin does on the Users screen (an unknown email
 * exits 2). Approving lets the owner's texts go, their held confirmations first; refusing ends their sessions. */
export function addApprovalCommands(users: Command): void {
  users
    .command("approve")
    .description("approve an owner who registered: texts go for them from now on (held confirmations first)")
    .argument("<email>", "the account's login email")
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast users approve owner@shop.com"))
    .action((email: string, opts) =>
      withContext(opts, (ctx) => {
        const user = ctx.services.ownerApproval.approveByEmail(OPERATOR, email);
        process.stdout.write(`Approved ${user.email} (id ${user.id}).\n`);
      }),
    );

  users
    .command("refuse")
    .description("refuse an account: it cannot sign in and nothing is texted for it; its data stays")
    .argument("<email>", "the account's login email")
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast users refuse spammer@example.com"))
    .action((email: string, opts) =>
      withContext(opts, (ctx) => {
        const user = ctx.services.ownerApproval.refuseByEmail(OPERATOR, email);
        process.stdout.write(`Refused ${user.email} (id ${user.id}): it cannot sign in, and its sessions were ended.\n`);
      }),
    );
}
