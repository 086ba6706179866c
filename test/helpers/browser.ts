import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const SCREENSHOT_DIR = join(import.meta.dir, "..", "..", "test-results", "screenshots");

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 860 };

/** Debian's chromium, headless, with a fresh profile that is removed on close; `javaScript: false` turns scripts off. */
export async function launchBrowser(
  viewport = DESKTOP,
  options: { javaScript?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "nearcast-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    viewport,
    javaScriptEnabled: options.javaScript ?? true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves test-results/screenshots/NAME.png (full page) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The paths the page requests from now on, of one kind ("document": the pages the browser loads; "script"). */
export function requestedPaths(page: Page, kind: "document" | "script"): string[] {
  const seen: string[] = [];
  page.on("request", (req) => {
    if (req.resourceType() === kind) seen.push(new URL(req.url()).pathname);
  });
  return seen;
}
