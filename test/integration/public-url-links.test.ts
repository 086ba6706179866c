// The one public-URL function (env NEARCAST_PUBLIC_URL > saved setting > the request's origin) in every place that
// builds a link: the QR code (decoded with jsQR, as a phone would), GET /api/site, the PDF poster's printed link,
// the webhook signature check and the checklist's webhook URL.
// Not the scenario runner: QR codes and PDFs are decoded from bytes fetched on real sockets with given Hosts.
import { afterEach, describe, expect, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { twilioSignature } from "../../src/messaging/signature.ts";
import { ADMIN_EMAIL, apiClient, PUBLIC_URL, signUp } from "../helpers/api.ts";
import { testContext, type TestContext } from "../helpers/context.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "../helpers/fake-twilio.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { pdfText } from "../helpers/pdf-text.ts";
import { decodeQrPng } from "../helpers/qr-decode.ts";

const LAN = "http://192.168.1.20:3000";
const ENV_URL = "https://env.example.org";

let ctx: TestContext;
afterEach(() => ctx?.close());

async function world(env: Record<string, string> = {}) {
  ctx = testContext({ NEARCAST_ADMIN_EMAIL: ADMIN_EMAIL, ...env });
  const api = apiClient(ctx);
  const admin = await signUp(api, { email: ADMIN_EMAIL });
  const owner = await signUp(api);
  const typeId = ctx.services.businessTypes.list()[0]!.id;
  const business = insertBusiness(ctx, { ownerId: owner.id, businessTypeId: typeId, name: "Corner Bakery" });
  /** A request as a browser at `origin` would make it (the Host decides the request's origin). */
  const at = async (origin: string, path: string, token?: string) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const res = await api.app.request(`${origin}${path}`, { headers }, { requestIP: () => ({ address: "192.168.1.50" }) });
    return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
  };
  const qrAt = async (origin: string) => {
    const res = await at(origin, `/api/business/GetQRCodeImage?id=${business.id}`);
    expect(res.status).toBe(200);
    return decodeQrPng(res.bytes);
  };
  const siteAt = async (origin: string) => JSON.parse(new TextDecoder().decode((await at(origin, "/api/site")).bytes));
  const posterAt = async (origin: string) => pdfText((await at(origin, `/api/business/GetPosterPdf?id=${business.id}`, owner.token)).bytes);
  // Through the settings service (what PUT /api/settings and `nearcast settings set` call).
  const save = async (publicUrl: string | null) => void ctx.services.settings.update(OPERATOR, { publicUrl });
  return { api, admin, owner, business, qrAt, siteAt, posterAt, save };
}

describe("no public URL set: the origin the request came in on", () => {
  test("the QR code fetched at a LAN address decodes to that address, and /api/site says it is private", async () => {
    const w = await world();
    expect(await w.qrAt(LAN)).toBe(`${LAN}/subscribe?id=${w.business.id}`);
    expect(await w.siteAt(LAN)).toMatchObject({ publicUrl: LAN, publicUrlSource: "request", publicUrlPrivate: true });
    expect(await w.posterAt(LAN)).toContain(`${LAN}/subscribe?id=${w.business.id}`);
  });

  test("fetched at a public host it decodes to that host, and /api/site says it is not private", async () => {
    const w = await world();
    expect(await w.qrAt("https://shop.example.net")).toBe(`https://shop.example.net/subscribe?id=${w.business.id}`);
    expect(await w.siteAt("https://shop.example.net")).toMatchObject({ publicUrlSource: "request", publicUrlPrivate: false });
  });
});

describe("a saved public URL wins over the request's origin", () => {
  test("after saving it, the same LAN request decodes to the saved URL; /api/site, the poster and the checklist agree", async () => {
    const w = await world();
    expect(await w.qrAt(LAN)).toBe(`${LAN}/subscribe?id=${w.business.id}`);
    await w.save(PUBLIC_URL);
    expect(await w.qrAt(LAN)).toBe(`${PUBLIC_URL}/subscribe?id=${w.business.id}`);
    expect(await w.siteAt(LAN)).toMatchObject({ publicUrl: PUBLIC_URL, publicUrlSource: "saved", publicUrlPrivate: false });
    expect(await w.posterAt(LAN)).toContain(`${PUBLIC_URL}/subscribe?id=${w.business.id}`);
    const items = (await w.api.get("/api/settings/Checklist", { token: w.admin.token })).body.items;
    expect(items.find((i: { id: string }) => i.id === "inboundWebhook").detail).toContain(`${PUBLIC_URL}/api/webhooks/twilio/inbound`);
    // Not green until it answered (issue 23 item 10); a name reserved for examples is not even looked up.
    expect(items.find((i: { id: string }) => i.id === "publicUrl")).toMatchObject({ status: "amber", detail: expect.stringContaining(`We could not reach ${PUBLIC_URL} from this server`) });
  });

  test("removing it goes back to the request's origin", async () => {
    const w = await world();
    await w.save(PUBLIC_URL);
    await w.save(null);
    expect(await w.qrAt(LAN)).toBe(`${LAN}/subscribe?id=${w.business.id}`);
  });
});

describe("NEARCAST_PUBLIC_URL wins over the saved one", () => {
  test("QR, /api/site and poster use the environment's URL although another is saved", async () => {
    const w = await world({ NEARCAST_PUBLIC_URL: ENV_URL });
    ctx.repos.settings.save("publicUrl", PUBLIC_URL, ctx.clock.now()); // saved before the variable was set (the service now refuses to)
    expect(await w.qrAt(LAN)).toBe(`${ENV_URL}/subscribe?id=${w.business.id}`);
    expect(await w.siteAt(LAN)).toMatchObject({ publicUrl: ENV_URL, publicUrlSource: "env", publicUrlPrivate: false });
    expect(await w.posterAt(LAN)).toContain(`${ENV_URL}/subscribe?id=${w.business.id}`);
  });
});

describe("webhook signatures are checked against the same URL", () => {
  const TWILIO = { TWILIO_ACCOUNT_SID: FAKE_ACCOUNT_SID, TWILIO_AUTH_TOKEN: FAKE_AUTH_TOKEN, TWILIO_FROM: "+15005550006", TWILIO_API_BASE: "http://127.0.0.1:9" };
  const INBOUND = "/api/webhooks/twilio/inbound";
  const params = { From: "+14155550100", To: "+15005550006", Body: "HELP", MessageSid: "SM00000000000000000000000000000001" };

  async function post(w: Awaited<ReturnType<typeof world>>, origin: string, signedFor: string) {
    const res = await w.api.app.request(
      `${origin}${INBOUND}`,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(FAKE_AUTH_TOKEN, signedFor, INBOUND, params) },
        body: new URLSearchParams(params).toString(),
      },
      { requestIP: () => ({ address: "54.172.60.1" }) },
    );
    return res.status;
  }

  test("with a saved URL, a request signed for it is accepted and one signed for the origin is refused", async () => {
    const w = await world(TWILIO);
    await w.save(PUBLIC_URL);
    expect(await post(w, LAN, LAN)).toBe(403);
    expect(await post(w, LAN, PUBLIC_URL)).toBe(200);
  });

  test("with none, the origin Twilio called is what it signed", async () => {
    const w = await world(TWILIO);
    expect(await post(w, LAN, LAN)).toBe(200);
  });
});
