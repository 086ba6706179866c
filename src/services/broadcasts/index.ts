// Broadcasts: publish a message (optional image) to every active subscriber of a business, now or at a time, and
// report progress. One service for the routes and the CLI, made of its jobs: publish.ts, schedule.ts, reports.ts and
// the WhatsApp audience (whatsapp-audience.ts). Their input is checked by the schemas in src/schemas/broadcast-input.ts.
import { type BroadcastDeps, broadcastParts } from "./parts.ts";
import { publishing } from "./publish.ts";
import { reports } from "./reports.ts";
import { scheduling } from "./schedule.ts";
import { stopping } from "./stop.ts";
import { deliveryReports } from "./delivery-report.ts";
import { broadcastResultsReports } from "./results.ts";
import { businessDashboards } from "./business-dashboard.ts";

export function createBroadcastsService(deps: BroadcastDeps) {
  const parts = broadcastParts(deps);
  const { whatsappAudience, whatsappTemplates } = parts.audiences;
  return { ...publishing(parts), ...scheduling(parts), ...reports(parts), ...stopping(parts), ...deliveryReports(parts), ...broadcastResultsReports(parts), ...businessDashboards(parts), whatsappAudience, whatsappTemplates };
}

export type BroadcastsService = ReturnType<typeof createBroadcastsService>;
