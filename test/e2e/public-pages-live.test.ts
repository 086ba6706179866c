import { afterAll, beforeAll, expect, test } from "bun:test";
import { INVALID_LOGIN } from "../../src/schemas/texts.ts";
import { FORGOT_REDIRECT_MS } from "../../web/features/auth/ForgotPassword.tsx";
import { LOGIN_FAILED } from "../../web/features/auth/error-messages.ts";
import { PHONE, requestedPaths } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { FIRST_ADMIN } from "../helpers/e2e-admin-and-owner.ts";
import { httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

// Issue 26 item 4: the public pages run the app's own screens on Preact (web/public/). What a visitor does there
// behaves as in the app: the checks of a form, the toasts, the phone menu, and moving between the account pages
// without loading a page.
let server: RunningBinary;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startBinary({ NEARCAST_ADMIN_EMAIL: FIRST_ADMIN.email, NEARCAST_SMTP_URL: smtp.url, NEARCAST_PUBLIC_URL: "https://deals.town.test" });
  expect((await httpClient(server.url)("POST", "/api/auth/Register", FIRST_ADMIN)).status).toBe(201);
});

afterAll(async () => {
  await server.stop();
  await smtp.close();
});

test("login: the form's checks, the server's refusal as a toast, the phone menu", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.getByText("Email is required").first().waitFor();
    expect(await page.getByText("Password is required").count()).toBeGreaterThan(0);

    await page.getByLabel("Email").fill(FIRST_ADMIN.email);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    const toast = page.getByRole("alert").filter({ hasText: LOGIN_FAILED });
    await toast.waitFor();
    expect(await toast.innerText()).toContain(INVALID_LOGIN);
    expect(page.url()).toBe(`${server.url}/login`);

    const toggle = page.getByRole("button", { name: "Open menu" });
    await toggle.click();
    expect(await page.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Escape");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

test("the account pages lead to each other in place; forgot-password toasts, then goes to login", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    const loads = requestedPaths(page, "document");
    await page.goto(`${server.url}/register`, { waitUntil: "networkidle" });
    await page.getByRole("main").getByRole("link", { name: "Login" }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(`${server.url}/forgot-password`);
    expect(loads).toEqual(["/register"]);

    await page.getByLabel("Email").fill(FIRST_ADMIN.email);
    await page.getByRole("button", { name: "Send Reset Instructions" }).click();
    await page.getByRole("status").filter({ hasText: "Email Sent" }).waitFor();
    expect((await smtp.waitFor(1))[0]!.rcptTo).toEqual([FIRST_ADMIN.email]);
    await page.waitForURL(`${server.url}/login`, { timeout: FORGOT_REDIRECT_MS + 10_000 });
    expect(loads).toEqual(["/register"]);
  });
});

test("a link to a page outside the page's script loads that page from the server", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    const loads = requestedPaths(page, "document");
    await page.goto(`${server.url}/terms`, { waitUntil: "networkidle" });
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await page.waitForURL(`${server.url}/privacy`);
    await page.getByRole("heading", { name: "Privacy Policy", level: 1 }).waitFor();
    expect(loads).toEqual(["/terms", "/privacy"]);
  });
});

test("the FAQ's questions open and close, each naming the answer it shows", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    await page.goto(`${server.url}/faq`, { waitUntil: "networkidle" });
    const question = page.locator(".accordion-heading button").first();
    const before = await question.getAttribute("aria-expanded");
    await question.click();
    expect(await question.getAttribute("aria-expanded")).toBe(before === "true" ? "false" : "true");
    // The id the server rendered is the one the script uses: the button still names a region that exists.
    const panel = await question.getAttribute("aria-controls");
    expect(await page.locator(`[id="${panel}"]`).count()).toBe(1);
    await question.click();
    expect(await question.getAttribute("aria-expanded")).toBe(before);
  });
});
