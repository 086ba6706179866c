import type { Server } from "bun";
import type { AppContext } from "../context.ts";
import { INBOUND_WEBHOOK_PATH, STATUS_WEBHOOK_PATH } from "../messaging/messenger.ts";
import { SUBSCRIBE_PATH, subscribeHandlerFor } from "./routes/subscription.ts";
import { webhookHandlersFor } from "./routes/webhooks.ts";

/**
 * Bun.serve `routes` for the busy machine-facing POSTs, answered by Bun's router without Hono: the public subscribe
 * (every scan of a poster) and Twilio's webhooks (a status callback per message of a broadcast). Their handlers do
 * what the Hono app's middleware would (routes/subscription.ts, routes/webhooks.ts), and the app mounts the same
 * handlers, so both ways in answer alike. Every other method and path goes to the app.
 */
export function serveRoutes(ctx: AppContext) {
  const subscribe = subscribeHandlerFor(ctx);
  const webhooks = webhookHandlersFor(ctx);
  return {
    [SUBSCRIBE_PATH]: { POST: (req: Request, server: Server<undefined>) => subscribe(req, server.requestIP(req)?.address) },
    [STATUS_WEBHOOK_PATH]: { POST: webhooks.status },
    [INBOUND_WEBHOOK_PATH]: { POST: webhooks.inbound },
  };
}
