// What the broadcast jobs (publish, schedule, reports) share: their dependencies and the helpers built on them once.
import type { Clock } from "../../clock.ts";
import type { Repos } from "../../repos/index.ts";
import type { SettingsService } from "../settings.ts";
import type { UploadsService } from "../uploads.ts";
import type { WhatsAppTemplatesService } from "../whatsapp-templates.ts";
import { broadcastAccess } from "./access.ts";
import { broadcastImages } from "./image.ts";
import { broadcastSummaries } from "./summary.ts";
import { whatsappAudiences } from "./whatsapp-audience.ts";

export interface BroadcastDeps {
  repos: Repos;
  clock: Clock;
  uploads: UploadsService;
  templates?: WhatsAppTemplatesService;
  /** Whether an image can be handed to Twilio (it needs the saved public URL): see public-links.ts. */
  settings: Pick<SettingsService, "savedPublicUrl" | "current" | "messaging">;
}

export function broadcastParts(deps: BroadcastDeps) {
  const access = broadcastAccess(deps.repos);
  return {
    ...deps,
    access,
    images: broadcastImages(deps.repos, deps.uploads),
    audiences: whatsappAudiences({ ...deps, access }),
    show: broadcastSummaries(deps.repos),
  };
}

export type BroadcastParts = ReturnType<typeof broadcastParts>;
