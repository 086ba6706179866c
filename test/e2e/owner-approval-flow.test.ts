import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { PENDING_NOTICE_TITLE } from "../../src/schemas/owner-approval.ts";
import { APPROVAL_NOTE } from "../../web/features/auth/Register.tsx";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { createCornerBakery } from "../helpers/server.ts";

// Issue 21, item 2, the whole way a new owner meets it, in Debian's chromium against the built executable with Twilio
// pointed at the fake: an owner registers on the Register page (sign-up under "approval"), is told why nothing is
// sent, and nothing reaches Twilio for them; the admin approves them on the home page; then the owner verifies their
// phone with the code Twilio carried, and their test send arrives at the fake Twilio.
let shop: Shop;
let fake: FakeTwilio;
const ADMIN = { email: "admin@corner-bakery.test", password: "flour-and-water" };

beforeAll(async () => {
  fake = startFakeTwilio();
  shop = await openShop("nearcast-e2e-approval-flow-", { NEARCAST_OWNER_SIGNUP: "approval", NEARCAST_SEND_RATE: "20", ...fake.settings() });
});
afterAll(async () => {
  await shop?.close();
  await fake?.stop();
});

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
}

for (const [device, viewport, phone] of [
  ["desktop", DESKTOP, "+14155550181"],
  ["phone", PHONE, "+14155550182"],
] as const) {
  test(`register, wait, get approved on the admin's home, verify the phone, test send arrives (${device})`, async () => {
    const owner = { firstName: "Mia", lastName: device === "desktop" ? "Desk" : "Mobile", email: `mia-${device}@new-bakery.test`, password: "rye-and-salt" };
    const fullName = `${owner.firstName} ${owner.lastName}`;
    await inBrowser(viewport, async ({ page }) => {
      const url = shop.server.url;
      // Registration, with the approval note.
      await page.goto(`${url}/register`);
      await page.getByText(APPROVAL_NOTE).waitFor();
      await page.getByLabel("First name").fill(owner.firstName);
      await page.getByLabel("Last name").fill(owner.lastName);
      await page.getByLabel("Email").fill(owner.email);
      await page.getByLabel("Password", { exact: true }).fill(owner.password);
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.waitForURL(`${url}/login`);

      // Signed in while pending: told why, and nothing they try reaches Twilio.
      await logInOnPage(page, url, owner);
      await page.getByTestId("pending-approval").getByText(PENDING_NOTICE_TITLE).waitFor();
      const token = (await page.evaluate(() => localStorage.getItem("token")))!;
      const types = (await shop.call("GET", "/api/businesstype/GetAllBusinessTypes")).body as { id: number }[];
      const businessId = await createCornerBakery(url, token, types[0]!.id);
      expect((await shop.call("PUT", "/api/auth/UpdateMyPhone", { phone }, token)).status).toBe(200);
      fake.reset();
      const code = await shop.call("POST", "/api/auth/SendPhoneCode", {}, token);
      expect(code.status).toBe(403);
      expect(code.body).toMatchObject({ code: "owner_not_approved" });
      expect(fake.sends()).toEqual([]);
      await page.goto(`${url}/businesses/broadcast/${businessId}`);
      await page.getByTestId("pending-approval").getByText(PENDING_NOTICE_TITLE).waitFor();
      await screenshot(page, `approval-flow-pending-${device}`);
      await signOut(page);

      // The admin approves them on the home page.
      await logInOnPage(page, url, ADMIN);
      await page.getByRole("heading", { name: "Owners waiting for approval" }).waitFor();
      await screenshot(page, `approval-flow-admin-home-${device}`);
      await page.getByRole("button", { name: `Approve ${fullName}` }).click();
      await page.getByRole("button", { name: `Approve ${fullName}` }).waitFor({ state: "detached" });
      const users = (await shop.call("GET", "/api/user/GetAllUsers", undefined, (await page.evaluate(() => localStorage.getItem("token")))!)).body as {
        email: string;
        status: string;
      }[];
      expect(users.find((u) => u.email === owner.email)?.status).toBe("approved");
      await signOut(page);

      // Approved: the notice is gone; the phone is verified with the code Twilio carried; the test arrives.
      await logInOnPage(page, url, owner);
      await page.goto(`${url}/businesses/broadcast/${businessId}`);
      await page.getByLabel("Message Text").fill(`Rye is back, 2 for $9 (${device})`);
      expect(await page.getByTestId("pending-approval").count()).toBe(0);
      fake.reset();
      await page.getByRole("button", { name: "Text me a code" }).click();
      await page.getByLabel("Verification code").waitFor();
      const sent = fake.sends();
      expect(sent).toHaveLength(1);
      expect(sent[0]!.form.To).toBe(phone);
      const digits = /\b(\d{6})\b/.exec(String(sent[0]!.form.Body))?.[1] ?? "";
      expect(digits).toHaveLength(6);
      await page.getByLabel("Verification code").fill(digits);
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await page.getByTestId("phone-badge").getByText("Verified").waitFor();

      fake.reset();
      await page.getByRole("button", { name: "Send a test to my phone" }).click();
      await page.getByTestId("test-outcome").getByText(`Test sent by SMS to ${phone}.`).waitFor();
      expect(fake.sends().map((s) => s.form)).toEqual([expect.objectContaining({ To: phone, Body: `Rye is back, 2 for $9 (${device})` })]);
      await page.locator(".bc-test").scrollIntoViewIfNeeded();
      await screenshot(page, `approval-flow-test-sent-${device}`);
    }, { timeoutMs: 15_000 });
  }, 120_000);
}
