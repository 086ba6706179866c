import type { BroadcastResults } from "../../../src/schemas/broadcast-results.ts";
import { api, idParam } from "../../shared/api/client.ts";

/** Where "Download CSV" points: the link's href, which its click fetches with the session. */
export const resultsCsvPath = (broadcastId: number | string) => `/api/business/ExportBroadcastResults?id=${idParam(broadcastId)}`;

export const resultsApi = {
  /** What one broadcast brought in (its owner, or an admin). */
  get: (broadcastId: number | string) => api.get<BroadcastResults>(`/api/business/GetBroadcastResults?id=${idParam(broadcastId)}`),
  /** The per-recipient outcome as CSV text. */
  exportCsv: (broadcastId: number | string) => api.get<string>(resultsCsvPath(broadcastId)),
};
