// Issue 25 on the broadcast screen: "Track link clicks", on by default where a public URL is set (off, with the
// reason, where none is); the counter and the preview show each link as the short link it will be sent as; the
// publish and the estimate say the owner's choice.
import { afterEach, describe, expect, test } from "bun:test";
import { fireEvent } from "@testing-library/react";
import type { SiteInfo } from "../../../src/schemas/settings.ts";
import { TRACKING_NEEDS_PUBLIC_URL } from "../../../src/schemas/link-tracking.ts";
import { site } from "../../../web/shared/state/site.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { confirmSend, ESTIMATE, PUBLISH, renderBroadcastScreen, useBroadcastScreen } from "./broadcast-screen.tsx";

const api = mockApi();
useBroadcastScreen(api);
afterEach(() => {
  site.value = null;
});

const DEALS = "https://shop.example.com/autumn/deals?utm_source=sms&utm_campaign=fall-weekend-2026";
/** Two segments as written, one with the link as a short link on deals.example.com. */
const LONG = `Fresh bread and pastries, 20% off until noon on Saturday and Sunday at our shop in the old town. See ${DEALS}`;

function siteWith(publicUrl: string, source: SiteInfo["publicUrlSource"]): SiteInfo {
  return { brandName: "Nearcast", contactEmail: "hi@example.com", publicUrl, publicUrlSource: source, publicUrlPrivate: false, setupNeeded: false, ownerSignup: "open", smsNumber: null };
}

async function screenWith(info: SiteInfo) {
  site.value = info;
  const view = await renderBroadcastScreen();
  const box = () => view.getByRole("checkbox", { name: "Track link clicks" }) as HTMLInputElement;
  const counter = () => view.getByTestId("sms-counter").textContent;
  const preview = () => view.getByTestId("preview-thread").textContent;
  return { ...view, box, counter, preview };
}

describe("Track link clicks", () => {
  test("on by default with a public URL: counted and previewed as a short link; unticked, as written, and the form says so", async () => {
    api.routes[`POST ${PUBLISH}`] = { body: { message: "Broadcast queued: 48 messages to 48 subscribers.", broadcastId: 9, recipients: 48 } };
    const s = await screenWith(siteWith("https://deals.example.com", "saved"));
    expect(s.box().checked).toBe(true);
    expect(s.box().disabled).toBe(false);
    s.type(LONG);
    await settle();
    expect(s.counter()).toContain("1 SMS segment");
    expect(s.preview()).toMatch(/See https:\/\/deals\.example\.com\/l\/[0-9A-Za-z]{8}/);
    expect(s.preview()).not.toContain(DEALS);

    fireEvent.click(s.box());
    await settle();
    expect(s.box().checked).toBe(false);
    expect(s.counter()).toContain("2 SMS segments");
    expect(s.preview()).toContain(DEALS);

    s.submit();
    await confirmSend();
    const estimate = api.calls.find((c) => c.url.endsWith(ESTIMATE))!;
    expect(estimate.body).toMatchObject({ messageText: LONG, trackLinks: false });
    const form = api.calls.find((c) => c.url.endsWith(PUBLISH))!.body as FormData;
    expect(form.get("TrackLinks")).toBe("false");
  });

  test("left on: the publish sends no TrackLinks (the default, on) and the estimate asks with it on", async () => {
    api.routes[`POST ${PUBLISH}`] = { body: { message: "Broadcast queued: 48 messages to 48 subscribers.", broadcastId: 9, recipients: 48 } };
    const s = await screenWith(siteWith("https://deals.example.com", "env"));
    s.type(LONG);
    s.submit();
    await confirmSend();
    expect(api.calls.find((c) => c.url.endsWith(ESTIMATE))!.body).toMatchObject({ trackLinks: true });
    expect((api.calls.find((c) => c.url.endsWith(PUBLISH))!.body as FormData).get("TrackLinks")).toBeNull();
  });

  test("no public URL: unticked and disabled, with the reason; the link is counted as written", async () => {
    const s = await screenWith(siteWith("http://localhost:3000", "request"));
    expect(s.box().checked).toBe(false);
    expect(s.box().disabled).toBe(true);
    expect(s.getByText(TRACKING_NEEDS_PUBLIC_URL)).toBeTruthy();
    s.type(LONG);
    await settle();
    expect(s.counter()).toContain("2 SMS segments");
    expect(s.preview()).toContain(DEALS);
  });
});
