// What carriers' reviewers check in a messaging programme, as plain rules over the words Nearcast shows and sends.
// The kit lists what fails in its `problems`; `nearcast doctor` and the checklist show the same sentences.

/** Each disclosure the consent text must carry, with how a reviewer would name it when it is missing. */
function disclosures(businessName: string, messagesPerWeek: number): [string, (t: string) => boolean][] {
  const has = (needle: string) => (t: string) => t.toLowerCase().includes(needle.toLowerCase());
  return [
    ["the business name", has(businessName.trim())],
    ["the message frequency", has(`up to ${messagesPerWeek} per week`)],
    ['"Msg & data rates may apply"', has("Msg & data rates may apply")],
    ["STOP", (t) => /\bSTOP\b/.test(t)],
    ["HELP", (t) => /\bHELP\b/.test(t)],
    ["the Terms", has("Terms")],
    ["the Privacy Policy", has("Privacy Policy")],
  ];
}

/** The consent text's missing disclosures; [] when it has them all. */
export function missingDisclosures(consent: string, businessName: string, messagesPerWeek: number): string[] {
  return disclosures(businessName, messagesPerWeek)
    .filter(([, present]) => !present(consent))
    .map(([name]) => name);
}

/** A sample names the business and says how to stop. */
export function sampleIsCompliant(sample: string, businessName: string): boolean {
  return sample.toLowerCase().includes(businessName.trim().toLowerCase()) && /\bSTOP\b/i.test(sample);
}

/** The problems of a programme's words, each a sentence with its fix. */
export function lintProgram(p: { businessName: string; messagesPerWeek: number; consent: string; samples: string[]; skippedBroadcasts: number }): string[] {
  const problems: string[] = [];
  const missing = missingDisclosures(p.consent, p.businessName, p.messagesPerWeek);
  if (missing.length) problems.push(`The consent text lacks ${missing.join(", ")}: carriers reject a programme without them.`);
  const bad = p.samples.filter((s) => !sampleIsCompliant(s, p.businessName)).length;
  if (bad) problems.push(`${bad} sample message(s) do not name ${p.businessName.trim()} or say "Reply STOP": edit them before pasting.`);
  if (p.skippedBroadcasts > 0) {
    problems.push(
      `${p.skippedBroadcasts} recent broadcast(s) were left out of the samples because they do not name ${p.businessName.trim()} or say "Reply STOP to opt out": write both into future broadcasts, so the texts reviewers see match the ones you send.`,
    );
  }
  return problems;
}
