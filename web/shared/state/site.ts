import { computed, signal } from "@preact/signals-react";
import { DEFAULT_BRAND } from "../../../src/schemas/brand.ts";
import type { SiteInfo } from "../../../src/schemas/settings.ts";
import { siteApi } from "../api/site.ts";

// GET /api/site, loaded once at start and again after anything that changes it (setup, Settings saved).
export const site = signal<SiteInfo | null>(null);

/** The brand and contact address the pages name; the defaults until the server has answered. */
export const brandName = computed(() => site.value?.brandName ?? DEFAULT_BRAND.brandName);
export const contactEmail = computed(() => site.value?.contactEmail ?? DEFAULT_BRAND.contactEmail);

/** The site's facts the server put in a rendered page (src/http/routes/public-pages.ts), so the first render matches
 * the page; nothing when the page carries none. */
export function readSiteFromPage(): void {
  const facts = document.getElementById("site-data")?.textContent;
  if (facts) site.value = JSON.parse(facts);
}

export async function loadSite(): Promise<void> {
  try {
    site.value = await siteApi.get();
  } catch {
    // The server is unreachable: the pages keep the defaults, and their own requests will say what is wrong.
  }
}
