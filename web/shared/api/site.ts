import type { SiteInfo } from "../../../src/schemas/settings.ts";
import { api } from "./client.ts";

/** The install's name, links and modes, public (GET /api/site). */
export const siteApi = {
  get: () => api.get<SiteInfo>("/api/site"),
};
