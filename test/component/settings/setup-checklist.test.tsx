// The admin's setup checklist on the home page.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/settings/setup-checklist.test.tsx
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import type { ChecklistItem } from "../../../src/schemas/checklist.ts";
import { SetupChecklist } from "../../../web/features/settings/components/SetupChecklist.tsx";
import { HomePage } from "../../../web/features/home/Home.tsx";
import { mockApi } from "../../helpers/mock-api.ts";
import { captureConsoleErrors } from "../console-errors.ts";
import { signIn } from "../sign-in.ts";

const ITEMS: ChecklistItem[] = [
  { id: "publicUrl", status: "red", title: "Public URL", detail: "Not set, so links and QR codes use whatever address a page was opened at." },
  { id: "messages", status: "amber", title: "Messages", detail: "Sandbox: messages are recorded, not sent." },
  { id: "inboundWebhook", status: "amber", title: "Inbound webhook", detail: "Not seen yet." },
  { id: "email", status: "green", title: "Email", detail: "SMTP is set." },
  { id: "businessTypes", status: "green", title: "Business types", detail: "8 active business types." },
];

const api = mockApi();
const logged = captureConsoleErrors();

afterEach(() => {
  cleanup();
  signIn(null);
});

describe("SetupChecklist", () => {
  test("each line: its title, a coloured dot and badge for its status, and the sentence", async () => {
    api.routes["GET /api/settings/Checklist"] = { body: { items: ITEMS } };
    const view = render(<SetupChecklist />);
    await waitFor(() => view.getByText("2 of 5 done"));
    const rows = [...view.container.querySelectorAll("li.setup-item")];
    expect(rows.map((r) => [r.querySelector(".setup-item-title")!.textContent, r.querySelector(".setup-dot")!.className])).toEqual([
      ["Public URLFix", "setup-dot is-red"],
      ["MessagesCheck", "setup-dot is-amber"],
      ["Inbound webhookCheck", "setup-dot is-amber"],
      ["EmailDone", "setup-dot is-green"],
      ["Business typesDone", "setup-dot is-green"],
    ]);
    expect(rows[1]!.querySelector(".setup-item-detail")!.textContent).toBe("Sandbox: messages are recorded, not sent.");
    expect(view.getByRole("heading", { name: "Setup checklist" })).toBeTruthy();
  });

  test("a failed load says so (and logs it) with Retry, which loads again", async () => {
    api.routes["GET /api/settings/Checklist"] = { network: true };
    const view = render(<SetupChecklist />);
    await waitFor(() => view.getByText("Could not load the setup checklist."));
    expect(logged.length).toBe(1);
    api.routes["GET /api/settings/Checklist"] = { body: { items: ITEMS } };
    fireEvent.click(view.getByRole("button", { name: "Retry" }));
    await waitFor(() => view.getByText("2 of 5 done"));
    expect(view.queryByText("Could not load the setup checklist.")).toBeNull();
    expect(api.paths()).toEqual(["GET /api/settings/Checklist", "GET /api/settings/Checklist"]);
  });
});

describe("home page", () => {
  test("an admin sees the checklist above the page", async () => {
    signIn("admin");
    api.routes["GET /api/settings/Checklist"] = { body: { items: ITEMS } };
    const view = render(<HomePage />);
    await waitFor(() => view.getByText("2 of 5 done"));
    expect(view.container.querySelector(".mk")!.firstElementChild!.classList.contains("setup-checklist")).toBe(true);
  });

  test("an owner or a visitor does not, and the checklist is not asked for", () => {
    // (A signed-in owner's home asks whether messages are in the sandbox, for the Try a reply panel.)
    api.routes["GET /api/webhooks/twilio/Sandbox"] = { body: { sandbox: false, inboundUrl: null } };
    for (const role of ["owner", null] as const) {
      signIn(role);
      const view = render(<HomePage />);
      expect(view.queryByRole("heading", { name: "Setup checklist" })).toBeNull();
      cleanup();
    }
    expect(api.paths().filter((p) => p.includes("Checklist"))).toEqual([]);
  });
});
