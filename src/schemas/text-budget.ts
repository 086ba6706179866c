// What GET /api/broadcast/TextBudget answers (src/services/text-budget.ts), and the line the owner's screens show.

/** One budget: its hourly limit, and how many texts can still go now. */
export interface BudgetLeft {
  limit: number;
  left: number;
}

/** What is left this hour of the owner's and the install's budgets for texts nobody broadcast. */
export interface TextBudgetView {
  owner: BudgetLeft;
  install: BudgetLeft;
  /** Texts that can go now (the smaller of the two). */
  left: number;
  /** When nothing is left: seconds until the next text can go; 0 otherwise. */
  waitSeconds: number;
}

/** The sentence under the Customers screen's title. */
export function textBudgetLine(b: TextBudgetView): string {
  const what = "confirmations, welcome texts and test sends";
  const server = b.install.left < b.owner.left ? " (the server's limit for all owners)" : "";
  if (b.left > 0) return `${b.left} of ${b.owner.limit} texts left this hour for ${what}${server}.`;
  const minutes = Math.max(1, Math.ceil(b.waitSeconds / 60));
  return `No texts left this hour for ${what}${server}: the next can go in ${minutes} minute${minutes === 1 ? "" : "s"}. Confirmations wait their turn and go by themselves.`;
}
