import { beforeAll, expect, test } from "bun:test";
import { DESKTOP, launchBrowser, PHONE, screenshot } from "../helpers/browser.ts";
import { useAdminAndOwner } from "../helpers/e2e-admin-and-owner.ts";
import { httpClient } from "../helpers/server.ts";

// Issue 10 item 6, in a real browser against the built executable in the sandbox (no Twilio): the owner's home shows
// "Try a reply"; HELP from their customer's number answers with the bakery's name, STOP unsubscribes the customer
// (seen through the API), and the admin also gets the inbound URL with its key.
const shop = useAdminAndOwner();
const PHONES = ["+14155550161", "+14155550162"];

beforeAll(async () => {
  const call = httpClient(shop.server.url);
  for (const phone of PHONES) {
    expect((await call("POST", "/api/customer/CreateCustomer", { phone, contactPreference: "SMS", businessId: shop.businessId }, shop.tokens.owner)).status).toBe(201);
  }
});

async function open(viewport: typeof DESKTOP, who: "admin" | "owner") {
  const browser = await launchBrowser(viewport);
  browser.context.setDefaultTimeout(10_000);
  await browser.context.addInitScript((token) => localStorage.setItem("token", token), shop.tokens[who]);
  return browser;
}

async function statusOf(phone: string): Promise<string | undefined> {
  const list = (await httpClient(shop.server.url)("GET", "/api/customer/GetAllCustomers", undefined, shop.tokens.owner)).body as {
    phone: string;
    businesses: { status: string }[];
  }[];
  return list.find((c) => c.phone === phone)?.businesses[0]?.status;
}

for (const [device, viewport, phone] of [["phone", PHONE, PHONES[0]!], ["desktop", DESKTOP, PHONES[1]!]] as const) {
  test(`owner (${device}): Try a reply, HELP then STOP from a customer's number`, async () => {
    const { page, close } = await open(viewport, "owner");
    try {
      await page.goto(`${shop.server.url}/`);
      const panel = page.locator("section.simulate-reply");
      await panel.getByRole("heading", { name: "Try a reply" }).waitFor();
      // A search box (issue 23): a few digits, then the matching customer's number.
      await panel.getByLabel("From").fill(phone.slice(-4));
      await panel.getByRole("list", { name: "Matching customers" }).getByRole("button", { name: phone }).click();
      await panel.getByRole("button", { name: "HELP" }).click();
      await panel.getByText("You are subscribed to messages from Rosa's Corner Bakery.", { exact: false }).waitFor();
      expect(await statusOf(phone)).toBe("active");
      await panel.getByRole("button", { name: "STOP" }).click();
      await panel.getByText("You have been unsubscribed from Rosa's Corner Bakery messages. Reply START to resubscribe.").waitFor();
      expect(await statusOf(phone)).toBe("unsubscribed");
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `simulate-reply-owner-${device}`);
      await page.screenshot({ path: (await screenshot(page, `simulate-reply-owner-${device}`)).replace(/\.png$/, "-viewport.png") });
      // Another owner's number (or a stranger's) is refused by the server, and the panel says so.
      await panel.getByLabel("From").fill("(415) 555-0199");
      await panel.getByRole("button", { name: "HELP" }).click();
      await panel.getByRole("alert").getByText("You can try replies only from numbers subscribed to your own businesses", { exact: false }).waitFor();
    } finally {
      await close();
    }
  }, 60_000);
}

test("admin (desktop): the panel offers the inbound URL with its key for curl, and that URL works without a session", async () => {
  const { page, close } = await open(DESKTOP, "admin");
  try {
    await page.goto(`${shop.server.url}/`);
    const panel = page.locator("section.simulate-reply");
    await panel.getByText("Try it with curl").click();
    const curl = (await panel.locator("code").textContent())!;
    const url = /'(http[^']+)'/.exec(curl)![1]!;
    expect(url).toMatch(/\/api\/webhooks\/twilio\/inbound\?key=[A-Za-z0-9_-]{43}$/);
    await screenshot(page, "simulate-reply-admin-desktop");
    const res = await fetch(url.replace("localhost", "127.0.0.1"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ From: PHONES[0]!, Body: "START" }),
    });
    expect(res.status).toBe(200);
    expect(await statusOf(PHONES[0]!)).toBe("active");
    const without = await fetch(url.replace(/\?key=.*$/, ""), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "From=%2B14155550161&Body=STOP" });
    expect(without.status).toBe(403);
  } finally {
    await close();
  }
}, 60_000);
