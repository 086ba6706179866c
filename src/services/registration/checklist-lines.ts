// The checklist's two lines about carrier registration (issue 23, item 1): "Messaging program" (the consent text's
// disclosures, /terms and /privacy answering on the public URL, the samples) and "Carrier registration" (a US sender
// the carriers have not approved yet). The checklist service adds them; `nearcast doctor` prints them.
import type { ChecklistItem } from "../../schemas/checklist.ts";
import { REGISTER_BEFORE_SENDING } from "../../schemas/registration.ts";
import type { CurrentSettings } from "../settings.ts";
import type { RegistrationService } from "./index.ts";
import { senderStatus } from "./sender.ts";

/** How long each legal page may take to answer before the line says it did not. */
const LEGAL_PAGE_TIMEOUT_MS = 4_000;
/** Where the registration screen lives (web/shared/paths.ts has the same route). */
export const REGISTRATION_SCREEN = "/registration";

/** The legal pages that do not answer 200 on the public URL, each with why ("/terms: 404"). */
export async function unreachableLegalPages(base: string, timeoutMs = LEGAL_PAGE_TIMEOUT_MS): Promise<string[]> {
  const check = async (path: string): Promise<string | null> => {
    try {
      const res = await fetch(`${base}${path}`, { redirect: "follow", signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      return res.ok ? null : `${path}: ${res.status}`;
    } catch (err) {
      return `${path}: ${err instanceof Error && err.name === "TimeoutError" ? "no answer" : "unreachable"}`;
    }
  };
  return (await Promise.all(["/terms", "/privacy"].map(check))).filter((p): p is string => p !== null);
}

/** The "Messaging program" line; none before the first active business (there is no programme to check). */
export async function programItem(registration: Pick<RegistrationService, "lintActive">, actor: Parameters<RegistrationService["lintActive"]>[0], base: string | null): Promise<ChecklistItem | null> {
  const linted = registration.lintActive(actor);
  if (linted.length === 0) return null;
  const title = "Messaging program";
  const legal = base === null ? ["/terms and /privacy cannot be checked: no public URL is saved"] : await unreachableLegalPages(base);
  const bad = linted.filter((b) => b.problems.length > 0);
  const lines = [
    ...(legal.length && base !== null ? [`Carriers' reviewers cannot open ${legal.join(", ")} on ${base}`] : legal),
    ...bad.map((b) => `${b.name} (#${b.businessId}): ${b.problems[0]}`),
  ];
  if (lines.length === 0) {
    return { id: "program", status: "green", title, detail: `Consent text, samples, terms and privacy pass the carriers' checks for ${linted.length} business(es).` };
  }
  return { id: "program", status: "amber", title, detail: `${lines.join(". ")}. Open the registration kit for each business.`, link: { href: REGISTRATION_SCREEN, label: "Registration kit" } };
}

/** The "Carrier registration" line: only for a US SMS sender (others need no such registration). */
export function registrationItem(s: Pick<CurrentSettings, "twilio" | "senderRegistration">): ChecklistItem | null {
  const sender = senderStatus(s);
  if (!sender.us) return null;
  const title = "Carrier registration";
  const link = { href: REGISTRATION_SCREEN, label: "Registration kit" };
  if (!sender.needsRegistration) return { id: "registration", status: "green", title, detail: `${sender.number} is approved by the carriers.` };
  const where = sender.registration === "pending" ? "is waiting for the carriers' approval" : "is not registered with the carriers";
  return {
    id: "registration",
    status: "amber",
    title,
    detail: `${REGISTER_BEFORE_SENDING}: ${sender.number} ${where}, and US carriers block texts from it until they approve it (Twilio errors 30032, 30034). The registration kit has every field the forms ask for; once approved, set senderRegistration to approved in Settings.`,
    link,
  };
}
