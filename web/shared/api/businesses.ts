import type { Business, PublicBusiness } from "../../../src/schemas/businesses.ts";
import { api, idParam } from "./client.ts";

// The business reads several features make (broadcast, customers, businesses, the print page); the businesses
// feature's own calls (create, update, images, export) are in features/businesses/api.ts.

export const BUSINESS_LOAD_FAILED = "Failed to load business information.";

export const businessReadApi = {
  /** The full record for its owner (or an admin); the public view of an active business for anyone else. */
  get: (id: number | string) => api.get<Business | PublicBusiness>(`/api/business/GetBusinessById?id=${idParam(id)}`),
  /** The caller's own businesses, inactive included. */
  listMine: () => api.get<Business[]>("/api/business/GetMyBusinesses"),
  /** Every active business, public fields (the admin's "which business" choice). */
  listActive: () => api.get<PublicBusiness[]>("/api/business/GetAllBusinesses"),
};
