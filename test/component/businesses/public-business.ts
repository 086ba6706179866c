// The public shape of a business the QR modal and the print page are given, for their component tests: the
// Sunrise Bakery, with a sample image and product.
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
  isActive: true,
  createdAt: "2026-01-02T03:04:05.000Z",
};
