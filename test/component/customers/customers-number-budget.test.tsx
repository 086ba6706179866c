// Issue 21 on the Customers screen: a stored number the rules refuse says why it is never texted, and one line says
// how many confirmations, welcome texts and test sends can still go this hour.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cleanup } from "@testing-library/react";
import { textBudgetLine } from "../../../src/schemas/text-budget.ts";
import { WHATSAPP_NO_PROMOTIONS } from "../../../src/schemas/whatsapp-reach.ts";
import { CustomersListPage } from "../../../web/features/customers/CustomersList.tsx";
import { clearSession } from "../../../web/shared/state/session.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { CUSTOMERS_PAGE } from "./customers-screen.ts";
import { renderAt } from "../render-at.tsx";

const api = mockApi();
const { routes } = api;

const row = (id: number, phone: string, numberProblem?: string) => ({
  id,
  phone,
  contactPreference: "SMS",
  createdAt: "2026-01-15T12:00:00.000Z",
  businesses: [{ id: 3, name: "Sunrise Bakery", status: "active" }],
  ...(numberProblem ? { numberProblem } : {}),
});

beforeEach(() => {
  routes["GET /api/business/GetMyBusinesses"] = { body: [{ id: 3, name: "Sunrise Bakery", isActive: true }] };
  routes["GET /api/customer/GetSubscriptionRequests"] = { body: [] };
  routes[CUSTOMERS_PAGE] = {
    body: {
      items: [row(2, "+18005550100", "not a mobile number (premium-rate, toll-free, shared-cost, satellite or landline)"), row(1, "+14155550150")],
      nextCursor: null,
      total: 2,
    },
  };
  localStorage.clear();
  clearSession();
});
afterEach(() => cleanup());

const open = () => renderAt("/customers", { "/customers": CustomersListPage });

describe("the Customers screen", () => {
  test("a number the rules refuse is shown with the reason; a good one is not marked", async () => {
    routes["GET /api/broadcast/TextBudget"] = { body: { owner: { limit: 50, left: 47 }, install: { limit: 200, left: 150 }, left: 47, waitSeconds: 0 } };
    const view = open();
    await view.findByText("+18005550100");
    const problems = [...view.container.querySelectorAll(".cust-number-problem")].map((e) => e.textContent);
    expect(problems).toEqual(["Never texted: not a mobile number (premium-rate, toll-free, shared-cost, satellite or landline)"]);
    expect((await view.findByTestId("text-budget")).textContent).toBe("47 of 50 texts left this hour for confirmations, welcome texts and test sends.");
  });

  test("a US number on WhatsApp is shown with why promotions never reach it (issue 23 item 7)", async () => {
    routes["GET /api/broadcast/TextBudget"] = { body: { owner: { limit: 50, left: 47 }, install: { limit: 200, left: 150 }, left: 47, waitSeconds: 0 } };
    routes[CUSTOMERS_PAGE] = {
      body: { items: [{ ...row(3, "+12125550142"), contactPreference: "WhatsApp", whatsappProblem: WHATSAPP_NO_PROMOTIONS }, row(1, "+14155550150")], nextCursor: null, total: 2 },
    };
    const view = open();
    await view.findByText("+12125550142");
    const problems = [...view.container.querySelectorAll(".cust-number-problem")].map((e) => e.textContent);
    expect(problems).toEqual([WHATSAPP_NO_PROMOTIONS]);
  });

  test("with nothing left, the line says when the next can go and that confirmations wait", async () => {
    routes["GET /api/broadcast/TextBudget"] = { body: { owner: { limit: 50, left: 3 }, install: { limit: 200, left: 0 }, left: 0, waitSeconds: 125 } };
    const view = open();
    const line = await view.findByTestId("text-budget");
    expect(line.textContent).toBe(
      "No texts left this hour for confirmations, welcome texts and test sends (the server's limit for all owners): the next can go in 3 minutes. Confirmations wait their turn and go by themselves.",
    );
    expect(line.className).toContain("text-budget-empty");
  });

  test("when the server cannot say, the line is left out and the list still shows", async () => {
    routes["GET /api/broadcast/TextBudget"] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = open();
    await view.findByText("+14155550150");
    expect(view.queryByTestId("text-budget")).toBeNull();
    expect(textBudgetLine({ owner: { limit: 50, left: 1 }, install: { limit: 200, left: 9 }, left: 1, waitSeconds: 0 })).toBe(
      "1 of 50 texts left this hour for confirmations, welcome texts and test sends.",
    );
  });
});
