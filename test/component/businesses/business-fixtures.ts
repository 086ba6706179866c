// Businesses for the component tests of the business screens: the public shape the QR modal and the print page
// are given (the Sunrise Bakery), and an owner's business as My Business and the form read it (Rosie's).
import type { PublicBusiness } from "../../../src/schemas/businesses.ts";

export const SUNRISE_BAKERY: PublicBusiness = {
  id: 7,
  name: "Sunrise Bakery",
  businessTypeId: 2,
  businessType: { id: 2, name: "Bakery" },
  address: "12 Main Street",
  phone: "(415) 555-0100",
  logoImagePath: null,
  sampleImagePath: "/uploads/sample.png",
  sampleProductText: "Croissants",
  qrMessage: "Scan for warm croissant deals!",
  successMessage: "Thanks!",
  posterOffer: null,
  messagesPerWeek: 4,
  doubleOptIn: false,
  keyword: null,
  isActive: true,
  createdAt: "2026-01-02T03:04:05.000Z",
};

/** An owner's business with every field filled, as GetBusinessById and GetMyBusinesses answer. */
export const ROSIES_CORNER_BAKERY = {
  id: 42,
  name: "Rosie's Corner Bakery",
  businessTypeId: 1,
  businessType: { id: 1, name: "Bakery" },
  address: "12 Baker Street, Springfield",
  phone: "(217) 555-0134",
  logoImagePath: "/uploads/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png",
  sampleImagePath: "/uploads/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.jpg",
  sampleProductText: "Sourdough loaf",
  qrMessage: "Scan for warm bread",
  successMessage: "Congratulations! Your phone number is Successfully Subscribed, you will be notified when we have new deals!",
  posterOffer: "BREAD DEAL: a free bun with every loaf",
  messagesPerWeek: 6,
  isActive: true,
  createdAt: "2026-03-05T12:00:00.000Z",
  ownerId: 7,
};
