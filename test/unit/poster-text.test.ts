import { describe, expect, test } from "bun:test";
import {
  DEFAULT_DEAL_TEXT,
  legalLinks,
  posterDisclosure,
  UNSUBSCRIBE_NOTE,
  initials,
  posterDeal,
  sampleDealText,
  splitDeal,
  subscribeLink,
} from "../../src/schemas/poster-text.ts";

const RESTAURANT = "TODAY'S TREAT: Buy one meal, get the second 50% OFF!";
const SALON = "PAMPER DEAL: 20% OFF your next cut, color or treatment!";
const SHOP = "SHOPPER'S DEAL: 15% OFF your entire purchase!";
const REAL_ESTATE = "FREE HOME VALUATION: Find out what your home is worth today!";
const GYM = "GET FIT: Your first week FREE, no strings attached!";
const AUTO = "CAR CARE DEAL: $20 OFF your next service or oil change!";

describe("sampleDealText", () => {
  test.each([
    ["Restaurant", RESTAURANT],
    ["Pizza", RESTAURANT],
    ["Family Restaurants", RESTAURANT],
    ["pizza & pasta", RESTAURANT],
    ["Salon", SALON],
    ["Hair Salon", SALON],
    ["Beauty", SALON],
    ["BEAUTY & SPA", SALON],
    ["Shop", SHOP],
    ["Gift Shop", SHOP],
    ["Retail", SHOP],
    ["Retail store", SHOP],
    ["Real Estate", REAL_ESTATE],
    ["real  estate agency", REAL_ESTATE],
    ["Gym", GYM],
    ["Fitness", GYM],
    ["Fitness Center", GYM],
    ["Auto", AUTO],
    ["Auto Repair", AUTO],
    ["Automotive", AUTO],
    ["Car", AUTO],
    ["Used Cars", AUTO],
    ["Car-Wash", AUTO],
  ])("%p -> its deal", (typeName, expected) => {
    expect(sampleDealText(typeName)).toBe(expected);
  });

  test("anything else gets the spec's default text, exactly", () => {
    expect(DEFAULT_DEAL_TEXT).toBe("SPECIAL OFFER: 25% OFF your next purchase!");
    for (const name of ["Bakery", "Florist", "Pet Care", "Cards & Gifts", "Realty", "Dentist", "", "   "]) {
      expect(sampleDealText(name)).toBe(DEFAULT_DEAL_TEXT);
    }
    expect(sampleDealText(null)).toBe(DEFAULT_DEAL_TEXT);
    expect(sampleDealText(undefined)).toBe(DEFAULT_DEAL_TEXT);
  });

  test("the first keyword in the spec's order wins", () => {
    expect(sampleDealText("Beauty Shop")).toBe(SALON);
    expect(sampleDealText("Pizza Shop")).toBe(RESTAURANT);
    expect(sampleDealText("Auto Parts Shop")).toBe(SHOP);
  });

  test("every deal has a short label and an offer", () => {
    for (const text of [RESTAURANT, SALON, SHOP, REAL_ESTATE, GYM, AUTO, DEFAULT_DEAL_TEXT]) {
      const { label, offer } = splitDeal(text);
      expect(label.length).toBeGreaterThan(2);
      expect(offer.length).toBeGreaterThan(10);
      expect(`${label}: ${offer}`).toBe(text);
    }
    expect(splitDeal("No label here")).toEqual({ label: "", offer: "No label here" });
  });

  test("posterDeal: the type's deal, split", () => {
    expect(posterDeal("Fitness Center")).toEqual({ label: "GET FIT", offer: "Your first week FREE, no strings attached!" });
    expect(posterDeal("")).toEqual(splitDeal(DEFAULT_DEAL_TEXT));
  });
});

test("the poster's fixed texts", () => {
  expect(UNSUBSCRIBE_NOTE).toBe("To unsubscribe, reply with a Unsubscribe message");
  expect(posterDisclosure(3)).toBe("Recurring promotional messages by SMS/WhatsApp, up to 3 per week. Msg & data rates may apply. Reply STOP to cancel, HELP for help.");
  expect(legalLinks("https://deals.example.com/")).toBe("Terms: deals.example.com/terms · Privacy: deals.example.com/privacy");
});

test("initials: up to the given number of letters", () => {
  expect(initials("Sunrise Bakery & Cafe")).toBe("SB");
  expect(initials("Sunrise Bakery & Cafe", 3)).toBe("SBC");
  expect(initials("joe")).toBe("J");
  expect(initials("  élan  vital ")).toBe("ÉV");
  expect(initials("&&")).toBe("?");
});

test("subscribeLink joins the public URL and the id", () => {
  expect(subscribeLink("https://deals.example.com", 7)).toBe("https://deals.example.com/subscribe?id=7");
  expect(subscribeLink("https://deals.example.com/", 7)).toBe("https://deals.example.com/subscribe?id=7");
});
