// Each screen's own <title>, set from the route table in web/shared/paths.ts.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/page-titles.test.tsx
import { afterEach, beforeEach, expect, test } from "bun:test";
import { act, cleanup, render } from "@testing-library/react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { Routes } from "../../web/app.tsx";
import { screens } from "../../web/screens.ts";
import { pageDescription as descriptionOfPath, SITE_DESCRIPTION } from "../../src/schemas/page-descriptions.ts";
import { pageTitle, type RouteName, routes } from "../../web/shared/paths.ts";
import { token } from "../../web/shared/state/session.ts";
import { mockApi } from "../helpers/mock-api.ts";

const api = mockApi();

beforeEach(() => {
  token.value = null;
  document.title = "";
  api.fallback = { body: [] };
});
afterEach(cleanup);

function renderRoutes(path: string) {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook}>
      <Routes screens={screens} />
    </Router>,
  );
  return location;
}

test("every route has its own title, 'Customers · Nearcast'; home keeps the product's tagline", () => {
  const names = Object.keys(routes) as RouteName[];
  const titles = names.map((name) => pageTitle(name));
  expect(new Set(titles).size).toBe(names.length);
  expect(pageTitle("customers")).toBe("Customers · Nearcast");
  expect(pageTitle("businessTypeEdit")).toBe("Edit Business Type · Nearcast");
  expect(pageTitle("home")).toBe("Nearcast — deals from the shops next door");
});

test("the title follows the screen shown", async () => {
  const location = renderRoutes("/about");
  expect(document.title).toBe("About · Nearcast");
  await act(async () => location.navigate("/faq"));
  expect(document.title).toBe("FAQ · Nearcast");
  await act(async () => location.navigate("/"));
  expect(document.title).toBe("Nearcast — deals from the shops next door");
});

test("a guarded page without login ends on the login page's title", async () => {
  const location = renderRoutes("/customers");
  await act(async () => {});
  expect(location.history?.at(-1)).toBe("/login?next=/customers");
  expect(document.title).toBe("Login · Nearcast");
});

test("the meta description follows the screen shown: a public page's own, the site's elsewhere", async () => {
  // web/index.html's tag, which the app updates in place.
  const meta = document.createElement("meta");
  meta.name = "description";
  meta.content = SITE_DESCRIPTION;
  document.head.append(meta);
  try {
    const location = renderRoutes("/privacy");
    expect(meta.content).toBe(descriptionOfPath("/privacy"));
    expect(meta.content).not.toBe(SITE_DESCRIPTION);
    await act(async () => location.navigate("/faq"));
    expect(meta.content).toBe(descriptionOfPath("/faq"));
    await act(async () => location.navigate("/"));
    expect(meta.content).toBe(SITE_DESCRIPTION);
    expect(document.head.querySelectorAll('meta[name="description"]').length).toBe(1);
  } finally {
    meta.remove();
  }
});
