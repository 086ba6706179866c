// Public static pages (spec section 2): Home, About, FAQ, Terms, Privacy.
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { AboutPage } from "../../web/features/info/About.tsx";
import { FaqPage } from "../../web/features/info/Faq.tsx";
import { HomePage } from "../../web/features/home/Home.tsx";
import { PrivacyPage } from "../../web/features/info/Privacy.tsx";
import { TermsPage } from "../../web/features/info/Terms.tsx";

function renderAt(ui: ReactNode, path = "/") {
  const location = memoryLocation({ path, record: true });
  const view = render(<Router hook={location.hook}>{ui}</Router>);
  return { ...view, location };
}

afterEach(() => {
  cleanup();
  setSystemTime();
});

/** One h1, and no heading level skipped going down (h2 -> h4 would be a skip). */
function expectHeadingsInOrder(container: HTMLElement) {
  const levels = [...container.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => Number(h.tagName[1]));
  expect(levels.filter((l) => l === 1)).toHaveLength(1);
  expect(levels[0]).toBe(1);
  for (let i = 1; i < levels.length; i++) expect(levels[i]!).toBeLessThanOrEqual(levels[i - 1]! + 1);
}

function hrefsOf(name: string | RegExp): string[] {
  return screen.getAllByRole("link", { name }).map((a) => a.getAttribute("href") ?? "");
}

function documentSections(container: HTMLElement) {
  const article = container.querySelector("article");
  if (!article) throw new Error("no <article>");
  const headings = within(article as HTMLElement).getAllByRole("heading", { level: 2 });
  return { article: article as HTMLElement, headings, titles: headings.map((h) => h.textContent ?? "") };
}

function expectNumberedSections(container: HTMLElement, count: number) {
  const { article, titles } = documentSections(container);
  expect(article.querySelectorAll(":scope > section")).toHaveLength(count);
  expect(titles).toHaveLength(count);
  titles.forEach((t, i) => expect(t.startsWith(`${i + 1}. `)).toBe(true));
  // Every section has a title and some text.
  for (const s of article.querySelectorAll(":scope > section")) expect((s.textContent ?? "").length).toBeGreaterThan(80);
  // The contents list links to each section, in order, and every target exists.
  const nav = screen.getByRole("navigation", { name: "Contents" });
  const links = within(nav).getAllByRole("link");
  expect(links).toHaveLength(count);
  links.forEach((a, i) => {
    const id = (a.getAttribute("href") ?? "").slice(1);
    const target = container.querySelector(`[id="${id}"]`);
    expect(target?.querySelector("h2")?.textContent).toBe(titles[i]!);
  });
}

describe("Terms of Service", () => {
  test("renders exactly 20 numbered sections with a contents list", () => {
    const { container } = renderAt(<TermsPage />, "/terms");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Terms of Service");
    expectNumberedSections(container, 20);
    expectHeadingsInOrder(container);
  });

  test("'Last updated' shows today's date as a US English long date", () => {
    setSystemTime(new Date(2031, 2, 5, 9, 30));
    const { container } = renderAt(<TermsPage />, "/terms");
    const line = screen.getByText(/^Last updated:/);
    expect(line.textContent).toBe("Last updated: March 5, 2031");
    expect(container.querySelector("time")?.getAttribute("datetime")).toBe("2031-03-05");
  });

  test("the date follows the clock (no hard-coded date)", () => {
    const today = new Date().toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" });
    renderAt(<TermsPage />, "/terms");
    expect(screen.getByText(/^Last updated:/).textContent).toBe(`Last updated: ${today}`);
  });

  test("promises 30 days' notice for material changes and caps liability at 100 US dollars", () => {
    const { container } = renderAt(<TermsPage />, "/terms");
    const { titles, article } = documentSections(container);
    const changes = article.querySelectorAll(":scope > section")[titles.findIndex((t) => t.includes("Changes"))];
    expect(changes?.textContent).toContain("at least 30 days' notice before a material change");
    const liability = article.querySelectorAll(":scope > section")[titles.findIndex((t) => t.includes("Limitation of Liability"))];
    expect(liability?.textContent).toContain("one hundred US dollars (US$100)");
    expect(article.textContent).toContain("UNSUBSCRIBE or STOP");
    expect(hrefsOf("Privacy Policy")).toContain("/privacy");
  });
});

describe("Privacy Policy", () => {
  test("renders exactly 21 numbered sections with a contents list", () => {
    const { container } = renderAt(<PrivacyPage />, "/privacy");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Privacy Policy");
    expectNumberedSections(container, 21);
    expectHeadingsInOrder(container);
  });

  test("shows the same 'Last updated' line with today's date", () => {
    setSystemTime(new Date(2030, 11, 31, 23, 0));
    const { container } = renderAt(<PrivacyPage />, "/privacy");
    expect(screen.getByText(/^Last updated:/).textContent).toBe("Last updated: December 31, 2030");
    expect(container.querySelector("time")?.getAttribute("datetime")).toBe("2030-12-31");
  });

  test("states the children, phone-number and opt-out rules", () => {
    const { container } = renderAt(<PrivacyPage />, "/privacy");
    const text = container.textContent ?? "";
    expect(text).toContain("not intended for children under 13");
    expect(text).toContain("Your phone number is used only for notifications");
    expect(text).toContain("We never sell, rent or trade phone numbers");
    expect(text).toContain("deleted on request");
    expect(text).toContain("replying STOP");
    expect(text).toContain("at least 30 days' notice");
  });
});

describe("FAQ", () => {
  const QUESTIONS = [
    "How do I unsubscribe?",
    "How do I subscribe to a business?",
    "What kind of notifications will I receive?",
    "Does it cost anything?",
    "How is my phone number used?",
  ];

  function panelOf(button: HTMLElement): HTMLElement {
    const id = button.getAttribute("aria-controls");
    const panel = id ? document.getElementById(id) : null;
    if (!panel) throw new Error(`no panel for ${button.textContent}`);
    return panel;
  }

  test("every question is a collapsed button controlling a hidden region", () => {
    const { container } = renderAt(<FaqPage />, "/faq");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Frequently Asked Questions");
    for (const q of QUESTIONS) {
      const button = screen.getByRole("button", { name: q });
      expect(button.getAttribute("aria-expanded")).toBe("false");
      const panel = panelOf(button);
      expect(panel.hidden).toBe(true);
      expect(panel.getAttribute("role")).toBe("region");
      expect(panel.getAttribute("aria-labelledby")).toBe(button.id);
    }
    expectHeadingsInOrder(container);
  });

  test("a question opens and closes, and items are independent", () => {
    renderAt(<FaqPage />, "/faq");
    const unsubscribe = screen.getByRole("button", { name: "How do I unsubscribe?" });
    const cost = screen.getByRole("button", { name: "Does it cost anything?" });
    act(() => fireEvent.click(unsubscribe));
    expect(unsubscribe.getAttribute("aria-expanded")).toBe("true");
    expect(panelOf(unsubscribe).hidden).toBe(false);
    act(() => fireEvent.click(cost));
    expect(cost.getAttribute("aria-expanded")).toBe("true");
    expect(unsubscribe.getAttribute("aria-expanded")).toBe("true");
    act(() => fireEvent.click(unsubscribe));
    expect(unsubscribe.getAttribute("aria-expanded")).toBe("false");
    expect(panelOf(unsubscribe).hidden).toBe(true);
    expect(cost.getAttribute("aria-expanded")).toBe("true");
  });

  test("answers carry the spec's texts", () => {
    renderAt(<FaqPage />, "/faq");
    const open = (q: string) => {
      const button = screen.getByRole("button", { name: q });
      act(() => fireEvent.click(button));
      return panelOf(button).textContent ?? "";
    };
    const unsubscribe = open("How do I unsubscribe?");
    expect(unsubscribe).toContain("Reply UNSUBSCRIBE or STOP");
    expect(unsubscribe).toContain("from the phone number you enrolled");
    expect(unsubscribe).toContain("To unsubscribe, reply with a Unsubscribe message");

    const types = screen.getByRole("button", { name: "What kind of notifications will I receive?" });
    act(() => fireEvent.click(types));
    const items = within(panelOf(types)).getAllByRole("listitem").map((li) => li.textContent);
    expect(items).toEqual(["Promotions", "Offers", "Deals", "Flash sales", "New products and services", "Events"]);

    expect(open("Does it cost anything?")).toContain("Subscribing is free, though carrier SMS rates may apply");
    const phone = open("How is my phone number used?");
    expect(phone).toContain("used only to send you notifications");
    expect(phone).toContain("never shared");
    expect(phone).toContain("deleted on request");
    expect(open("How do I subscribe to a business?")).toContain("enter your phone number");
  });

  test("links to the businesses list", () => {
    const { location } = renderAt(<FaqPage />, "/faq");
    expect(hrefsOf("Browse Businesses")).toEqual(["/businesses"]);
    act(() => fireEvent.click(screen.getByRole("button", { name: "How do I subscribe to a business?" })));
    const link = screen.getByRole("link", { name: "businesses list" });
    expect(link.getAttribute("href")).toBe("/businesses");
    act(() => fireEvent.click(link));
    expect(location.history.at(-1)).toBe("/businesses");
  });
});

describe("Home", () => {
  test("hero buttons lead to /businesses and /about", () => {
    const { container, location } = renderAt(<HomePage />);
    expect(screen.getByRole("heading", { level: 1 })).toBeTruthy();
    const hero = container.querySelector("section") as HTMLElement;
    expect(within(hero).getByRole("link", { name: "Browse Businesses" }).getAttribute("href")).toBe("/businesses");
    // Shown as "Learn More"; its name (screen readers, search engines: Lighthouse's link-text audit) says where it leads.
    const learnMore = within(hero).getByRole("link", { name: "Learn More about Nearcast" });
    expect(learnMore.firstChild?.textContent).toBe("Learn More");
    expect(learnMore.querySelector(".sr-only")?.textContent).toBe(" about Nearcast");
    expect(learnMore.getAttribute("href")).toBe("/about");
    act(() => fireEvent.click(learnMore));
    expect(location.history.at(-1)).toBe("/about");
    expectHeadingsInOrder(container);
  });

  test("shows the three steps in order and six benefit cards", () => {
    renderAt(<HomePage />);
    const how = screen.getByRole("region", { name: "Subscribed in three simple steps" });
    expect(within(how).getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual([
      "Scan the QR code",
      "Enter your number",
      "Get notified",
    ]);
    const benefits = screen.getByRole("region", { name: "Good for you, good for your neighborhood" });
    expect(within(benefits).getAllByRole("listitem")).toHaveLength(6);
    expect(within(benefits).getAllByRole("heading", { level: 3 })).toHaveLength(6);
  });

  test("the sample promotion shows a bakery message and switches between SMS and WhatsApp", () => {
    renderAt(<HomePage />);
    const sms = screen.getByRole("button", { name: "SMS" });
    const whatsapp = screen.getByRole("button", { name: "WhatsApp" });
    expect(sms.getAttribute("aria-pressed")).toBe("true");
    const phone = screen.getByRole("figure", { name: "Sample SMS promotion from Sunrise Bakery" });
    expect(phone.textContent).toContain("Flash sale today only");
    expect(phone.textContent).toContain("Reply STOP to unsubscribe.");
    act(() => fireEvent.click(whatsapp));
    expect(whatsapp.getAttribute("aria-pressed")).toBe("true");
    expect(sms.getAttribute("aria-pressed")).toBe("false");
    expect(screen.getByRole("figure", { name: "Sample WhatsApp promotion from Sunrise Bakery" })).toBeTruthy();
  });

  test("the call to action leads to /businesses", () => {
    renderAt(<HomePage />);
    const cta = screen.getByRole("region", { name: "Find your favorite local businesses" });
    expect(within(cta).getByRole("link").getAttribute("href")).toBe("/businesses");
  });
});

describe("About", () => {
  test("shows the mission, the spec's statistics and both benefit lists", () => {
    const { container } = renderAt(<AboutPage />, "/about");
    expect(screen.getByRole("heading", { level: 2, name: "Our mission" })).toBeTruthy();
    const stats = [...container.querySelectorAll(".mk-stat")].map((s) => [
      s.querySelector("dd")?.textContent,
      s.querySelector("dt")?.textContent,
    ]);
    expect(stats).toEqual([
      ["1000+", "Happy customers"],
      ["500+", "Businesses"],
      ["10,000+", "Notifications sent"],
    ]);
    for (const name of ["For businesses", "For customers"]) {
      const list = screen.getByRole("region", { name });
      expect(within(list).getAllByRole("listitem").length).toBeGreaterThanOrEqual(4);
    }
    expectHeadingsInOrder(container);
  });

  test("buttons lead to /businesses and /register ('Add Your Business')", () => {
    const { location } = renderAt(<AboutPage />, "/about");
    expect(hrefsOf("Browse Businesses")).toEqual(["/businesses"]);
    const add = screen.getByRole("link", { name: "Add Your Business" });
    expect(add.getAttribute("href")).toBe("/register");
    act(() => fireEvent.click(add));
    expect(location.history.at(-1)).toBe("/register");
  });
});
