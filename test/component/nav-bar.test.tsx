// The navigation bar's phone menu on happy-dom.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/nav-bar.test.tsx
import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent } from "@testing-library/react";
import { NavBar } from "../../web/shared/components/NavBar.tsx";
import { renderAt } from "./render-at.tsx";

afterEach(cleanup);

test("the phone menu: the button opens it; Escape closes it and gives focus back to the button", () => {
  const view = renderAt("/", { "/": <NavBar /> });
  const button = () => view.getByRole("button", { name: /menu/ });
  const nav = view.container.querySelector("#main-nav")!;
  fireEvent.click(button());
  expect(button().getAttribute("aria-expanded")).toBe("true");
  expect(button().getAttribute("aria-label")).toBe("Close menu");
  expect(nav.classList.contains("open")).toBe(true);
  (view.getByRole("link", { name: "About" }) as HTMLElement).focus();
  fireEvent.keyDown(document.activeElement!, { key: "Escape" });
  expect(button().getAttribute("aria-expanded")).toBe("false");
  expect(button().getAttribute("aria-label")).toBe("Open menu");
  expect(nav.classList.contains("open")).toBe(false);
  expect(document.activeElement).toBe(button());
});

test("Escape with the menu closed leaves focus where it is", () => {
  const view = renderAt("/", { "/": <NavBar /> });
  const about = view.getByRole("link", { name: "About" }) as HTMLElement;
  about.focus();
  fireEvent.keyDown(about, { key: "Escape" });
  expect(document.activeElement).toBe(about);
  expect(view.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");
});
