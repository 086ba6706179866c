// "Export consent (CSV)" on the owner's business view: fetches the CSV and saves it as a file.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/businesses/export-consent.test.tsx
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cleanup, fireEvent, waitFor } from "@testing-library/react";
import { MyBusinessPage } from "../../../web/features/businesses/MyBusiness.tsx";
import { token } from "../../../web/shared/state/session.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { renderAt } from "../render-at.tsx";
import { ROSIES_CORNER_BAKERY } from "./business-fixtures.ts";

const api = mockApi();
const CSV = "phone,event,source,time,ip,user agent,text\r\n'+14155550101,subscribed,qr,2026-01-10T09:00:00.000Z,,,I agree\r\n";
const business = { ...ROSIES_CORNER_BAKERY, logoImagePath: null, qrMessage: "Scan", successMessage: "Thanks", posterOffer: null, messagesPerWeek: 4 };

let saved: { href: string; download: string }[] = [];
const realClick = HTMLAnchorElement.prototype.click;
const realCreate = URL.createObjectURL;
let blobs: Blob[] = [];

beforeEach(() => {
  token.value = "owner-token";
  saved = [];
  blobs = [];
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  };
  URL.createObjectURL = (blob: Blob) => {
    blobs.push(blob);
    return "blob:consent";
  };
  api.routes["GET /api/business/GetMyBusinesses"] = { body: [business] };
});
afterEach(() => {
  cleanup();
  token.value = null;
  HTMLAnchorElement.prototype.click = realClick;
  URL.createObjectURL = realCreate;
});

test("the button fetches the CSV and saves it as consent-business-<id>.csv", async () => {
  api.routes["GET /api/business/ExportConsent"] = { text: CSV, headers: { "content-type": "text/csv; charset=utf-8" } };
  const view = renderAt("/my-business", { "/my-business": MyBusinessPage });
  fireEvent.click(await waitFor(() => view.getByRole("button", { name: "Export consent (CSV) of Rosie's Corner Bakery" })));
  await waitFor(() => expect(saved).toHaveLength(1));
  expect(saved[0]!.download).toBe("consent-business-42.csv");
  expect(await blobs[0]!.text()).toBe(CSV);
  const call = api.calls.find((c) => c.url.startsWith("/api/business/ExportConsent"))!;
  expect(call.url).toBe("/api/business/ExportConsent?id=42");
  expect(call.method).toBe("GET");
  expect(api.alerts).toEqual([]);
});

test("a failed export alerts why and saves nothing", async () => {
  api.routes["GET /api/business/ExportConsent"] = { status: 404, body: { error: "Business not found.", code: "not_found" } };
  const view = renderAt("/my-business", { "/my-business": MyBusinessPage });
  fireEvent.click(await waitFor(() => view.getByRole("button", { name: "Export consent (CSV) of Rosie's Corner Bakery" })));
  await waitFor(() => expect(api.alerts).toEqual(["Could not export the consent of Rosie's Corner Bakery. Business not found."]));
  expect(saved).toEqual([]);
});
