// The brand and contact mailbox are the server's (issue 9): what GET /api/site says (the brandName and contactEmail
// settings) shows wherever a page names them, and the defaults until it has answered.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/brand.test.tsx
import { afterEach, beforeEach, expect, test } from "bun:test";
import { act, cleanup, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { Routes } from "../../web/app.tsx";
import { screens } from "../../web/screens.ts";
import { Footer } from "../../web/shared/components/Footer.tsx";
import { NavBar } from "../../web/shared/components/NavBar.tsx";
import { HomePage } from "../../web/features/home/Home.tsx";
import { AboutPage } from "../../web/features/info/About.tsx";
import { FaqPage } from "../../web/features/info/Faq.tsx";
import { PrivacyPage } from "../../web/features/info/Privacy.tsx";
import { TermsPage } from "../../web/features/info/Terms.tsx";
import { site } from "../../web/shared/state/site.ts";
import { mockApi, siteInfo } from "../helpers/mock-api.ts";

const api = mockApi();
const BRAND = "Main Street Deals";
const MAIL = "hi@mainstreet.example";

beforeEach(() => {
  site.value = siteInfo({ brandName: BRAND, contactEmail: MAIL });
  api.fallback = { body: [] };
});
afterEach(() => {
  cleanup();
  site.value = null;
});

function renderAt(ui: ReactNode, path = "/") {
  const location = memoryLocation({ path });
  return render(<Router hook={location.hook}>{ui}</Router>);
}

const mailLinks = (root: HTMLElement) => [...root.querySelectorAll('a[href^="mailto:"]')].map((a) => [a.getAttribute("href"), a.textContent]);

test("the footer names the saved brand and links the saved contact email", () => {
  const { container } = renderAt(<Footer />);
  expect(container.textContent).toContain(`© ${new Date().getFullYear()} ${BRAND}. All rights reserved.`);
  expect(container.querySelector(".logo")?.textContent).toBe(BRAND);
  expect(mailLinks(container)).toEqual([[`mailto:${MAIL}`, MAIL]]);
  expect(container.textContent).not.toContain("Nearcast");
  expect(container.textContent).not.toContain("nearcast.app");
});

test("the privacy policy names the saved brand and contact email, never the defaults", () => {
  const { container } = renderAt(<PrivacyPage />, "/privacy");
  expect(container.textContent).toContain(`${BRAND} (“we”, “us”) runs a service`);
  expect(container.textContent).toContain(`This policy explains what ${BRAND} collects`);
  const links = mailLinks(container);
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) expect(link).toEqual([`mailto:${MAIL}`, MAIL]);
  expect(container.textContent).not.toContain("Nearcast");
  expect(container.textContent).not.toContain("nearcast.app");
});

test("terms, FAQ and about name the saved brand and contact email, never the defaults", () => {
  for (const [page, path] of [[<TermsPage />, "/terms"], [<FaqPage />, "/faq"], [<AboutPage />, "/about"]] as const) {
    const { container, unmount } = renderAt(page, path);
    expect(container.textContent).toContain(BRAND);
    for (const link of mailLinks(container)) expect(link).toEqual([`mailto:${MAIL}`, MAIL]);
    expect(container.textContent).not.toContain("Nearcast");
    expect(container.textContent).not.toContain("nearcast.app");
    unmount();
  }
});

test("the nav's home link and the page titles name the saved brand", async () => {
  const { getByRole } = renderAt(
    <>
      <NavBar />
      <Routes screens={screens} />
    </>,
    "/about",
  );
  expect(getByRole("link", { name: `${BRAND} home` })).toBeTruthy();
  expect(document.title).toBe(`About · ${BRAND}`);
});

test("a brand saved while the page is open shows at once; until the server answers, the defaults", async () => {
  site.value = null;
  const { container } = renderAt(<Footer />);
  expect(container.textContent).toContain("Nearcast. All rights reserved.");
  expect(mailLinks(container)).toEqual([["mailto:hello@nearcast.app", "hello@nearcast.app"]]);
  await act(async () => {
    site.value = siteInfo({ brandName: BRAND, contactEmail: MAIL });
  });
  expect(container.textContent).toContain(`${BRAND}. All rights reserved.`);
  expect(mailLinks(container)).toEqual([[`mailto:${MAIL}`, MAIL]]);
});

test("the home page names the saved brand, never Nearcast (issue 23)", () => {
  const { container } = renderAt(<HomePage />);
  expect(container.textContent).toContain(`${BRAND} connects neighborhood businesses with their regulars.`);
  expect(container.textContent).toContain(`Why ${BRAND}`);
  expect(container.textContent).toContain(`Browse the shops already on ${BRAND} and subscribe in seconds.`);
  expect(container.textContent).not.toContain("Nearcast");
});
