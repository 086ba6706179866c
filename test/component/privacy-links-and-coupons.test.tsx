// The Privacy Policy on links with clicks and coupons (issue 25): what is recorded, for how long and that deleting a
// number deletes it, each in its own section; still the spec's 21 sections (static-pages.test.tsx counts them).
import { afterEach, expect, test } from "bun:test";
import { cleanup, render } from "@testing-library/react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { PrivacyPage } from "../../web/features/info/Privacy.tsx";

afterEach(cleanup);

/** The text of each numbered section, by its title without the number. */
function sections(): Map<string, string> {
  const { container } = render(
    <Router hook={memoryLocation({ path: "/privacy" }).hook}>
      <PrivacyPage />
    </Router>,
  );
  const out = new Map<string, string>();
  for (const s of container.querySelectorAll("article > section")) {
    const title = (s.querySelector("h2")?.textContent ?? "").replace(/^\d+\. /, "");
    out.set(title, (s.textContent ?? "").replace(/\s+/g, " "));
  }
  return out;
}

test("Message Records: a click is recorded with its time and message, no address past a day, previews not counted; coupons: when and by whom", () => {
  const text = sections().get("Message Records") ?? "";
  expect(text).toContain("we record that the link was clicked, the time, and which message it came from");
  expect(text).toContain("We keep no IP address beyond a day's check that the same click is not counted twice");
  expect(text).toContain("link previews made by phones, apps and carriers are not counted");
  expect(text).toContain("we record when the code was redeemed and by whom");
  // What was there before stays.
  expect(text).toContain("its delivery status (Sent, Delivered or Failed)");
});

test("Data Retention: as long as the message's records, at least 90 days; Deleting Your Data: they go with the number", () => {
  const all = sections();
  expect(all.get("Data Retention")).toContain(
    "Records of link clicks and coupon redemptions are kept as long as the records of the message they came from",
  );
  expect(all.get("Data Retention")).toContain("never less than 90 days after the message was sent");
  expect(all.get("Deleting Your Data")).toContain(
    "Deleting your number also deletes the record of the links you clicked and the coupons you redeemed.",
  );
  expect(all.get("How We Use Other Information")).toContain("how many of its links were clicked and its coupons redeemed");
  expect(all.size).toBe(21);
});
