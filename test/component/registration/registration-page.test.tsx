// The carrier registration screen (issue 23, item 1) and the checklist's link to it.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/registration/registration-page.test.tsx
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render, waitFor } from "@testing-library/react";
import { Route, Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import type { ChecklistItem } from "../../../src/schemas/checklist.ts";
import { REGISTER_BEFORE_SENDING, type RegistrationKit } from "../../../src/schemas/registration.ts";
import { RegistrationNote, RegistrationPage } from "../../../web/features/registration/index.ts";
import { SetupChecklist } from "../../../web/features/settings/components/SetupChecklist.tsx";
import { mockApi } from "../../helpers/mock-api.ts";
import { signIn } from "../sign-in.ts";

const api = mockApi();
afterEach(() => {
  cleanup();
  signIn(null);
});

const MISSING = "Missing: no public URL is saved (see the problems above).";
const PROBLEM = "No public URL is saved, so the program page, poster, terms and privacy URLs are missing.";

function kit(over: Partial<RegistrationKit> = {}): RegistrationKit {
  return {
    businessId: 3,
    businessName: "Rosa's Bakery",
    useCase: "MARKETING",
    description: "Rosa's Bakery is a local bakery.",
    optInType: "WEB_FORM",
    optInDescription: "Customers scan the QR code.",
    optInImageUrl: null,
    programUrl: null,
    privacyUrl: null,
    termsUrl: null,
    sampleMessages: ["Rosa's Bakery: 2 for 1. Reply STOP to opt out."],
    monthlyVolume: 40,
    monthlyVolumeTier: "100",
    monthlyVolumeBasis: "10 SMS subscriber(s) x 4 broadcast(s) in the last 30 days",
    keywords: [{ keyword: "HELP", reply: "Nearcast: You are subscribed to messages from Rosa's Bakery." }],
    sender: { number: "+14155550199", us: true, registration: "unregistered", needsRegistration: true },
    problems: [PROBLEM],
    ...over,
  };
}

function renderKit(search: string) {
  const location = memoryLocation({ path: `/registration${search}` });
  return render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <Route path="/registration" component={RegistrationPage} />
    </Router>,
  );
}

describe("RegistrationPage", () => {
  test("no public URL: each URL says it is missing (no Copy), the problem is listed, the amber note names the sender", async () => {
    signIn("owner");
    api.routes["GET /api/business/GetRegistrationKit"] = { body: kit() };
    const view = renderKit("?business=3");
    await waitFor(() => view.getByRole("heading", { name: "Rosa's Bakery" }));
    expect(api.calls.map((c) => c.url)).toEqual(["/api/business/GetRegistrationKit?id=3"]);
    expect(view.getAllByText(MISSING)).toHaveLength(4);
    expect(view.queryByRole("button", { name: "Copy Program page URL" })).toBeNull();
    expect(view.getByText(PROBLEM)).toBeTruthy();
    expect(view.getByText(`${REGISTER_BEFORE_SENDING}.`).parentElement!.textContent).toContain("+14155550199 is a US number, unregistered");
    expect((view.getByRole("textbox", { name: "Use case" }) as HTMLTextAreaElement).value).toBe("MARKETING");
    expect((view.getByRole("textbox", { name: "Sample message 1" }) as HTMLTextAreaElement).value).toBe("Rosa's Bakery: 2 for 1. Reply STOP to opt out.");
    expect(view.getByRole("button", { name: "Copy Reply to HELP" })).toBeTruthy();
  });

  test("a ready kit: every URL with Copy, no problems box, no note for an approved sender", async () => {
    signIn("owner");
    const url = (p: string) => `https://deals.example.com${p}`;
    api.routes["GET /api/business/GetRegistrationKit"] = {
      body: kit({ programUrl: url("/program?id=3"), optInImageUrl: url("/program/poster.pdf?id=3"), privacyUrl: url("/privacy"), termsUrl: url("/terms"), problems: [], sender: { number: "+14155550199", us: true, registration: "approved", needsRegistration: false } }),
    };
    const view = renderKit("?business=3");
    await waitFor(() => view.getByRole("textbox", { name: "Program page URL" }));
    expect(view.queryByText(MISSING)).toBeNull();
    expect(view.queryByText(/Fix before you submit/)).toBeNull();
    expect(view.queryByText(`${REGISTER_BEFORE_SENDING}.`)).toBeNull();
    expect(view.getByRole("button", { name: "Copy Program page URL" })).toBeTruthy();
  });

  test("another owner's business: the server's 404 sentence", async () => {
    signIn("owner");
    api.routes["GET /api/business/GetRegistrationKit"] = { status: 404, body: { error: "Business not found.", code: "not_found" } };
    const view = renderKit("?business=9");
    await waitFor(() => view.getByRole("alert"));
    expect(view.getByRole("alert").textContent).toBe("Business not found.");
  });
});

describe("the links to the kit", () => {
  test("the broadcast screen's note: only while the US sender needs registration, linking to the business's kit", async () => {
    signIn("owner");
    api.routes["GET /api/business/GetRegistrationKit"] = { body: kit() };
    const view = render(<RegistrationNote businessId={3} />);
    await waitFor(() => view.getByRole("link", { name: "Open the registration kit" }));
    expect(view.getByRole("link", { name: "Open the registration kit" }).getAttribute("href")).toBe("/registration?business=3");
    cleanup();
    api.routes["GET /api/business/GetRegistrationKit"] = { body: kit({ sender: { number: "+447700900123", us: false, registration: "unregistered", needsRegistration: false } }) };
    const none = render(<RegistrationNote businessId={3} />);
    await waitFor(() => expect(api.calls.length).toBe(2));
    expect(none.container.textContent).toBe("");
  });

  test("a checklist line with a link shows it", async () => {
    const items: ChecklistItem[] = [{ id: "registration", status: "amber", title: "Carrier registration", detail: `${REGISTER_BEFORE_SENDING}: ...`, link: { href: "/registration", label: "Registration kit" } }];
    api.routes["GET /api/settings/Checklist"] = { body: { items } };
    const view = render(<SetupChecklist />);
    await waitFor(() => view.getByRole("link", { name: "Registration kit" }));
    expect(view.getByRole("link", { name: "Registration kit" }).getAttribute("href")).toBe("/registration");
  });
});
