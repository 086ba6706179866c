import type { TextBudgetView } from "../../../../src/schemas/text-budget.ts";
import { api } from "../../../shared/api/client.ts";

/** What is left this hour of the signed-in account's budget for texts nobody broadcast. */
export const textBudgetApi = {
  left: () => api.get<TextBudgetView>("/api/broadcast/TextBudget"),
};
