// A test's own browser: launched, given its default timeout, handed to the test, and closed however the test ends.
import { launchBrowser } from "./browser.ts";

type Browser = Awaited<ReturnType<typeof launchBrowser>>;

export async function inBrowser<T>(
  viewport: Parameters<typeof launchBrowser>[0],
  use: (browser: Browser) => Promise<T>,
  options: { javaScript?: boolean; timeoutMs?: number } = {},
): Promise<T> {
  const browser = await launchBrowser(viewport, { javaScript: options.javaScript });
  browser.context.setDefaultTimeout(options.timeoutMs ?? 10_000);
  try {
    return await use(browser);
  } finally {
    await browser.close();
  }
}
