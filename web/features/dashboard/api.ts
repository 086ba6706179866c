import type { BusinessDashboard } from "../../../src/schemas/business-dashboard.ts";
import { api, idParam } from "../../shared/api/client.ts";

export const dashboardApi = {
  /** A business at a glance (its owner, or an admin): subscribers and opt-outs by day, the last broadcasts, this month. */
  get: (businessId: number | string) => api.get<BusinessDashboard>(`/api/business/GetBusinessDashboard?id=${idParam(businessId)}`),
};
