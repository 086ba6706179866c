// The corner bakery the browser tests start from: the built executable on a fresh data dir with a business type and
// an admin made by the CLI, an owner registered and logged in over HTTP, and their business with a sample image.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { BINARY, createCornerBakery, httpClient, type RunningBinary, startBinary } from "./server.ts";

export const SHOP_OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@corner-bakery.test", password: "flour-and-water" };

export interface Shop {
  server: RunningBinary;
  dataDir: string;
  call: ReturnType<typeof httpClient>;
  /** The owner's bearer token. */
  token: string;
  businessId: number;
  /** Runs the executable's CLI on the shop's data dir; its stdout. */
  cli(...args: string[]): string;
  close(): Promise<void>;
}

export async function openShop(prefix: string, env: Record<string, string> = {}, owner = SHOP_OWNER): Promise<Shop> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const cli = (...args: string[]): string => {
    const proc = Bun.spawnSync([BINARY, ...args, "--data-dir", dataDir], { env: { PATH: process.env.PATH ?? "" } });
    if (proc.exitCode !== 0) throw new Error(`nearcast ${args.join(" ")} failed: ${proc.stderr.toString()}`);
    return proc.stdout.toString();
  };
  // A server without an admin opens on the first-run setup screen; this one has its admin from the CLI (which also
  // makes the database the other commands need).
  cli("users", "create", "--email", "admin@corner-bakery.test", "--password", "flour-and-water", "--admin");
  const type = JSON.parse(cli("business-types", "add", "--name", "Bakery", "--json")) as { id: number };
  const server = await startBinary(env, dataDir);
  const call = httpClient(server.url);
  expect((await call("POST", "/api/auth/Register", owner)).status).toBe(201);
  const { token } = (await call("POST", "/api/auth/Login", { email: owner.email, password: owner.password })).body as { token: string };
  const businessId = await createCornerBakery(server.url, token, type.id);
  return {
    server,
    dataDir,
    call,
    token,
    businessId,
    cli,
    async close() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Logs in through the Login screen and waits for the home page. */
export async function logInOnPage(page: Page, baseUrl: string, owner: { email: string; password: string } = SHOP_OWNER): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await page.waitForURL(`${baseUrl}/`);
  await theAppAfterLogin(page);
}

/**
 * After a login on /login: the app has taken the page over and shows the owner's nav. /login is a public page with
 * its own script (web/public/), so the login ends in a page load: a test that goes on before it would be cut short.
 */
export async function theAppAfterLogin(page: Page): Promise<void> {
  // The owner's nav alone is not enough: the login page's own nav shows it too, just before the page load.
  await page.waitForFunction(() => document.querySelector('script[src*="/assets/app-"]') && document.querySelector('#main-nav a[href="/my-business"]'));
}
