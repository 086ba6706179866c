import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

// The inbox (issue 24), mounted at /api/inbox. Login required; tenancy in services.inbox (another owner's
// conversation, or its media, is a 404).
export const inboxRoutes = new Hono<AppEnv>()
  .get("/ListConversations", requireUser, (c) => c.json(c.var.ctx.services.inbox.list(c.var.user!, c.req.query())))
  .get("/GetConversation", requireUser, (c) => c.json(c.var.ctx.services.inbox.get(c.var.user!, c.req.query())))
  .get("/UnreadCount", requireUser, (c) => c.json(c.var.ctx.services.inbox.unreadCount(c.var.user!)))
  .post("/Reply", smallBody, requireUser, async (c) => {
    const body = await readJson(c);
    return c.json(await c.var.ctx.services.inbox.reply(c.var.user!, body));
  })
  // A reply's picture, to its owner only: never cached by anyone but the browser.
  .get("/Media/:id", requireUser, (c) => {
    const file = c.var.ctx.services.inbox.mediaFile(c.var.user!, c.req.param("id"));
    const headers = {
      "Content-Type": file.contentType,
      "Cache-Control": "private, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "inline",
    };
    return new Response(Bun.file(file.path), { status: 200, headers });
  });
