// The links the owner is shown (QR modal, print page) are built on GET /api/site's public URL, the base the QR image
// encodes; a link phones outside the network cannot open is flagged; the admin is offered to save the address.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/public-url-links.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import type { PublicBusiness } from "../../src/schemas/businesses.ts";
import { UNREACHABLE_LINK_FIX, UNREACHABLE_LINK_WARNING } from "../../src/schemas/public-url.ts";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { OFFER_DISMISSED_KEY, OFFER_SAVE_FAILED, PublicUrlOffer } from "../../web/features/settings/components/PublicUrlOffer.tsx";
import { QrModal } from "../../web/features/businesses/components/QrModal.tsx";
import { PrintPosterPage } from "../../web/features/businesses/PrintPoster.tsx";
import { site } from "../../web/shared/state/site.ts";
import { mockApi, siteInfo } from "../helpers/mock-api.ts";
import { signIn } from "./sign-in.ts";
import { SUNRISE_BAKERY } from "./businesses/business-fixtures.ts";

const BUSINESS: PublicBusiness = { ...SUNRISE_BAKERY, sampleImagePath: null, sampleProductText: "" };

const LAN = "http://192.168.1.20:3000";
const SAVED = "https://deals.example.com";

const api = mockApi();

beforeEach(() => {
  localStorage.clear();
  signIn(null);
  site.value = null;
});

afterEach(() => {
  cleanup();
  signIn(null);
  site.value = null;
  document.body.className = "";
});

describe("QR modal", () => {
  test("the link shown and copied is the site's public URL (what the QR image encodes), not the page's origin", () => {
    signIn("owner");
    site.value = siteInfo({ publicUrl: SAVED, publicUrlSource: "saved", publicUrlPrivate: false });
    const view = render(<QrModal business={BUSINESS} onClose={() => {}} />);
    expect((view.getByLabelText("Subscription link") as HTMLInputElement).value).toBe(`${SAVED}/subscribe?id=7`);
    expect(view.queryByText(`${UNREACHABLE_LINK_WARNING}.`)).toBeNull();
  });

  test("until /api/site has answered, the page's origin", () => {
    signIn("owner");
    const view = render(<QrModal business={BUSINESS} onClose={() => {}} />);
    expect((view.getByLabelText("Subscription link") as HTMLInputElement).value).toBe(`${window.location.origin}/subscribe?id=7`);
  });

  test("a private link: the owner is warned with how to fix it, without a Settings link", () => {
    signIn("owner");
    site.value = siteInfo({ publicUrl: LAN });
    const view = render(<QrModal business={BUSINESS} onClose={() => {}} />);
    expect((view.getByLabelText("Subscription link") as HTMLInputElement).value).toBe(`${LAN}/subscribe?id=7`);
    const warning = view.getByText(`${UNREACHABLE_LINK_WARNING}.`).closest(".link-warning")!;
    expect(warning.textContent).toContain(UNREACHABLE_LINK_FIX);
    expect(view.queryByRole("link", { name: "Open Settings" })).toBeNull();
  });

  test("the admin's warning links to Settings; a visitor who is not logged in sees no warning", () => {
    signIn("admin");
    site.value = siteInfo({ publicUrl: LAN });
    let view = render(<QrModal business={BUSINESS} onClose={() => {}} />);
    expect(view.getByRole("link", { name: "Open Settings" }).getAttribute("href")).toBe("/settings");
    cleanup();
    signIn(null);
    view = render(<QrModal business={BUSINESS} onClose={() => {}} />);
    expect(view.queryByText(`${UNREACHABLE_LINK_WARNING}.`)).toBeNull();
  });
});

describe("print page", () => {
  async function poster() {
    api.routes["GET /api/business/GetBusinessById"] = { body: BUSINESS };
    const view = render(<PrintPosterPage id="7" />);
    await waitFor(() => {
      if (!view.queryByText("Scan for deals!")) throw new Error("not loaded");
    });
    return view;
  }

  test("the printed link is the site's public URL", async () => {
    site.value = siteInfo({ publicUrl: SAVED, publicUrlSource: "saved", publicUrlPrivate: false });
    const view = await poster();
    expect(view.getByText(`${SAVED}/subscribe?id=7`)).toBeTruthy();
    expect(view.queryByText(`${UNREACHABLE_LINK_WARNING}.`)).toBeNull();
  });

  test("a private link: a warning on screen, outside the poster and marked to be left out of print", async () => {
    signIn("owner");
    site.value = siteInfo({ publicUrl: LAN });
    const view = await poster();
    expect(view.getByText(`${LAN}/subscribe?id=7`)).toBeTruthy();
    const warning = view.getByText(`${UNREACHABLE_LINK_WARNING}.`).closest(".link-warning")!;
    expect(warning.classList.contains("print-warning")).toBe(true);
    expect(warning.closest(".poster-sheet")).toBeNull();
    expect(warning.textContent).toContain(UNREACHABLE_LINK_FIX);
  });
});

describe("PublicUrlOffer", () => {
  const OFFER = `Links and QR codes use ${LAN}. Save it as this server's public address?`;
  const offerText = (view: ReturnType<typeof render>) => view.container.querySelector(".public-url-offer p")?.textContent ?? null;

  test("an admin, no public URL saved: offers the address; Save stores it and reloads the site", async () => {
    signIn("admin");
    site.value = siteInfo({ publicUrl: LAN });
    api.routes["PUT /api/settings"] = { body: {} };
    api.routes["GET /api/site"] = { body: siteInfo({ publicUrl: LAN, publicUrlSource: "saved" }) };
    const view = render(<PublicUrlOffer />);
    expect(offerText(view)).toBe(OFFER);
    // A private address: the offer says so too.
    expect(view.container.textContent).toContain(`${UNREACHABLE_LINK_WARNING}. ${UNREACHABLE_LINK_FIX}`);
    fireEvent.click(view.getByRole("button", { name: "Save" }));
    await waitFor(() => {
      if (offerText(view) !== null) throw new Error("still offered");
    });
    expect(api.paths()).toEqual(["PUT /api/settings", "GET /api/site"]);
    expect(api.calls[0]!.body).toEqual({ publicUrl: LAN });
    expect(site.value?.publicUrlSource).toBe("saved");
  });

  test("a public address: no warning in the offer", () => {
    signIn("admin");
    site.value = siteInfo({ publicUrl: "https://shop.example.net", publicUrlPrivate: false });
    const view = render(<PublicUrlOffer />);
    expect(offerText(view)).toBe("Links and QR codes use https://shop.example.net. Save it as this server's public address?");
    expect(view.container.textContent).not.toContain(UNREACHABLE_LINK_WARNING);
  });

  test("not on Settings (its Public address section offers the same) nor on the print page", () => {
    signIn("admin");
    site.value = siteInfo({ publicUrl: LAN });
    for (const path of ["/settings", "/print/3"]) {
      const view = render(
        <Router hook={memoryLocation({ path }).hook}>
          <PublicUrlOffer />
        </Router>,
      );
      expect({ path, offer: offerText(view) }).toEqual({ path, offer: null });
      cleanup();
    }
    const home = render(
      <Router hook={memoryLocation({ path: "/" }).hook}>
        <PublicUrlOffer />
      </Router>,
    );
    expect(offerText(home)).toBe(OFFER);
  });

  test("Not now hides it and is remembered", () => {
    signIn("admin");
    site.value = siteInfo({ publicUrl: LAN });
    let view = render(<PublicUrlOffer />);
    fireEvent.click(view.getByRole("button", { name: "Not now" }));
    expect(offerText(view)).toBeNull();
    expect(localStorage.getItem(OFFER_DISMISSED_KEY)).toBe(LAN);
    cleanup();
    view = render(<PublicUrlOffer />);
    expect(offerText(view)).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  test("not for an owner, not when the URL is saved or set in the environment, not before /api/site answered", () => {
    const cases: [Parameters<typeof signIn>[0], ReturnType<typeof siteInfo> | null][] = [
      ["owner", siteInfo()],
      [null, siteInfo()],
      ["admin", siteInfo({ publicUrlSource: "saved" })],
      ["admin", siteInfo({ publicUrlSource: "env" })],
      ["admin", null],
    ];
    for (const [role, info] of cases) {
      signIn(role);
      site.value = info;
      const view = render(<PublicUrlOffer />);
      expect(view.container.innerHTML).toBe("");
      cleanup();
    }
  });

  test("a failed save says so and keeps the offer", async () => {
    signIn("admin");
    site.value = siteInfo({ publicUrl: LAN });
    api.routes["PUT /api/settings"] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = render(<PublicUrlOffer />);
    fireEvent.click(view.getByRole("button", { name: "Save" }));
    await waitFor(() => view.getByRole("alert"));
    expect(view.getByRole("alert").textContent).toBe(OFFER_SAVE_FAILED);
    expect(offerText(view)).toBe(OFFER);
    expect((view.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(false);
  });
});
