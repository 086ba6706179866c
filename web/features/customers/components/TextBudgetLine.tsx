import { useEffect, useState } from "react";
import { type TextBudgetView, textBudgetLine } from "../../../../src/schemas/text-budget.ts";
import { textBudgetApi } from "../api/text-budget.ts";

/**
 * One line: how many confirmations, welcome texts and test sends can still go this hour (the owner's and the
 * server's hourly budgets). Nothing while loading or when the server cannot say: it is a hint, not a gate. `refresh`
 * changes when something may have used the budget (an add, an import, a test send).
 */
export function TextBudgetLine({ refresh = 0 }: { refresh?: unknown }) {
  const [budget, setBudget] = useState<TextBudgetView | null>(null);
  useEffect(() => {
    let live = true;
    textBudgetApi.left().then(
      (b) => live && setBudget(b),
      () => live && setBudget(null),
    );
    return () => {
      live = false;
    };
  }, [refresh]);
  if (!budget) return null;
  return (
    <p className={`text-budget-line${budget.left === 0 ? " text-budget-empty" : ""}`} data-testid="text-budget">
      {textBudgetLine(budget)}
    </p>
  );
}
