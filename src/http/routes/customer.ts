import { type Context, Hono } from "hono";
import { AppError } from "../../errors.ts";
import { IMPORT_WRONG_TYPE, type ImportLine } from "../../schemas/customer-import.ts";
import { answerTo } from "../errors.ts";
import { requireUser } from "../middleware/auth.ts";
import { csvBody, smallBody } from "../middleware/body-limit.ts";
import { queryId, readJson, requestMeta } from "../request.ts";
import type { AppEnv } from "../types.ts";

/** A file name for the consent record: what the browser said, cut to something printable. */
const fileNameOf = (raw: string | undefined) => (raw ?? "").replace(/[^\w .()-]/g, "").trim().slice(0, 100) || "upload.csv";

/**
 * POST /api/customer/ImportCustomers?businessId=N[&fileName=…][&welcome=1], the CSV as the body (text/csv, 5 MB at
 * most). A refusal (the business, the type, the size, the header, no rows) is a 4xx before anything is written;
 * then the answer streams NDJSON lines (schemas/customer-import.ts): progress after each chunk, then the summary.
 */
async function importCustomers(c: Context<AppEnv>) {
  const businessId = queryId(c, "businessId");
  const type = c.req.header("content-type") ?? "";
  if (!/^\s*(text\/(csv|plain)|application\/(csv|vnd\.ms-excel))\s*(;|$)/i.test(type)) throw new AppError(415, "unsupported_media_type", IMPORT_WRONG_TYPE);
  const text = new TextDecoder("utf-8").decode(await c.req.arrayBuffer());
  const job = c.var.ctx.services.customers.prepareImport(c.var.user!, businessId, text, fileNameOf(c.req.query("fileName")), requestMeta(c));
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: ImportLine) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      try {
        const summary = await job.run({ welcome: c.req.query("welcome") === "1", onProgress: (progress) => send({ progress }) });
        send({ summary });
      } catch (err) {
        send(answerTo(err as Error, c).body);
      }
      controller.close();
    },
  });
  return c.body(stream, 200, { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" });
}

// Login required. An owner reaches only customers subscribed to their businesses (anything else answers 404);
// the admin reaches everyone. GetCustomerMessages belongs to the messages feature.
export const customerRoutes = new Hono<AppEnv>()
  .use("*", requireUser)
  .get("/GetAllCustomers", (c) => c.json(c.var.ctx.services.customers.list(c.var.user!)))
  .get("/ListCustomers", (c) => c.json(c.var.ctx.services.customers.page(c.var.user!, c.req.query())))
  .post("/ImportCustomers", csvBody, importCustomers)
  .get("/GetCustomerById", (c) => c.json(c.var.ctx.services.customers.get(c.var.user!, queryId(c))))
  .post("/CreateCustomer", smallBody, async (c) => {
    const body = await readJson(c);
    return c.json(c.var.ctx.services.customers.create(c.var.user!, body, requestMeta(c)), 201);
  })
  .put("/UpdateCustomer", smallBody, async (c) => {
    const id = queryId(c);
    const body = await readJson(c);
    return c.json(c.var.ctx.services.customers.update(c.var.user!, id, body, requestMeta(c)));
  })
  .delete("/DeleteCustomer", (c) => {
    c.var.ctx.services.customers.remove(c.var.user!, queryId(c), requestMeta(c));
    return c.json({ message: "Customer deleted." });
  })
  // People the owner removed who asked, on the public page, to subscribe again (pending until accepted/declined).
  .get("/GetSubscriptionRequests", (c) => c.json(c.var.ctx.services.customers.listRequests(c.var.user!)))
  .post("/AcceptSubscriptionRequest", smallBody, async (c) => {
    const body = await readJson(c);
    c.var.ctx.services.customers.acceptRequest(c.var.user!, body, requestMeta(c));
    return c.json({ message: "Request accepted." });
  })
  .post("/DeclineSubscriptionRequest", smallBody, async (c) => {
    const body = await readJson(c);
    c.var.ctx.services.customers.declineRequest(c.var.user!, body, requestMeta(c));
    return c.json({ message: "Request declined." });
  });
