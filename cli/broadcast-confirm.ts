// The CLI's confirm step before `broadcast send` (issue 11, item 6): the same question the broadcast screen asks
// (recipients, messages, segments, cost), answered with "y" on a terminal. Without a terminal nobody can answer, so
// it refuses (exit 2) and says to add --yes: a script must say on purpose that it sends to everyone.
import { createInterface } from "node:readline/promises";
import type { AppContext } from "../src/context.ts";
import { costLines, costLineText, estimateQuestion } from "../src/schemas/broadcast-estimate.ts";
import type { PublishBody } from "../src/schemas/broadcast-input.ts";
import { checkBroadcastImage } from "../src/services/broadcasts/image.ts";
import { parseScheduledFor } from "../src/services/broadcasts/schedule.ts";
import { OPERATOR } from "../src/services/principal.ts";

export const NO_TTY_REFUSAL = "nothing was sent: there is no terminal to ask on. Add --yes to send without asking.";

/** True to go on sending. Every check the publish would make on the input comes first, so a bad input is told as
 * such instead of being asked about. Sets the exit code when it says no. */
export async function confirmBroadcast(ctx: AppContext, input: PublishBody): Promise<boolean> {
  const scheduled = parseScheduledFor(input.scheduledFor, ctx.clock.now().getTime());
  if (input.image && input.image.length > 0) checkBroadcastImage(input.image);
  const estimate = await ctx.services.broadcastEstimate.estimate(OPERATOR, { businessId: input.businessId, messageText: input.messageText, hasImage: !!input.image?.length, withTemplate: !!input.contentSid, trackLinks: input.trackLinks });
  // Nobody to send to now: the publish itself says so (a scheduled one is still asked about: people may subscribe).
  if (estimate.recipients === 0 && !scheduled) return true;
  // How the cost is made, one channel a line, so the total can be checked (an MMS is priced per message).
  const lines = estimate.estimatedCost === null ? "" : costLines(estimate).map((l) => `\n  ${l.channel}: ${costLineText(l)}`).join("");
  const question = `${estimateQuestion(estimate, scheduled?.text)}.${lines}`;
  if (!process.stdin.isTTY) {
    process.stderr.write(`nearcast: ${question}\nnearcast: ${NO_TTY_REFUSAL}\n`);
    process.exitCode = 2;
    return false;
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question(`${question}${lines ? "\n" : " "}Send? [y/N] `)).trim().toLowerCase();
    if (answer === "y" || answer === "yes") return true;
  } finally {
    rl.close();
  }
  process.stderr.write("nearcast: not sent.\n");
  process.exitCode = 1;
  return false;
}
