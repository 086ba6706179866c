// The printed poster's join line (issue 24, item 5): "or text BAGEL to +1 555 000 1111" under the steps when the
// business has a keyword and the server an SMS sender (GET /api/site's smsNumber); otherwise nothing.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cleanup, render, waitFor } from "@testing-library/react";
import { Poster } from "../../../web/features/businesses/PrintPoster.tsx";
import { site } from "../../../web/shared/state/site.ts";
import { siteInfo } from "../../helpers/mock-api.ts";
import { SUNRISE_BAKERY } from "./business-fixtures.ts";

const realPrint = window.print;
beforeEach(() => {
  window.print = () => undefined;
});
afterEach(() => {
  cleanup();
  window.print = realPrint;
  site.value = null;
});

const joinLine = (view: ReturnType<typeof render>) => view.container.querySelector(".ps-join")?.textContent ?? null;

describe("the poster's join line", () => {
  test("a keyword and an SMS sender: the line, under the steps", async () => {
    site.value = siteInfo({ smsNumber: "+15550001111" });
    const view = render(<Poster business={{ ...SUNRISE_BAKERY, keyword: "BAGEL" }} origin="https://deals.example.com" />);
    await waitFor(() => expect(joinLine(view)).toBe("or text BAGEL to +1 555 000 1111"));
    expect(view.container.querySelector(".ps-steps + .ps-join")).not.toBeNull();
  });

  test("no keyword, or no sender: no line", () => {
    site.value = siteInfo({ smsNumber: "+15550001111" });
    const none = render(<Poster business={SUNRISE_BAKERY} origin="https://deals.example.com" />);
    expect(joinLine(none)).toBeNull();
    cleanup();
    site.value = siteInfo({ smsNumber: null });
    const sandbox = render(<Poster business={{ ...SUNRISE_BAKERY, keyword: "BAGEL" }} origin="https://deals.example.com" />);
    expect(joinLine(sandbox)).toBeNull();
  });
});
