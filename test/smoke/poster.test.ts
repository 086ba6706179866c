// The BUILT executable writes a poster PDF and serves QR codes: proves the embedded font, pdfkit and qrcode (all
// loaded lazily) work inside `bun build --compile`, where pdfkit's built-in Helvetica does not exist.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { posterDisclosure, UNSUBSCRIBE_NOTE } from "../../src/schemas/poster-text.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { isPdf, pdfText } from "../helpers/pdf-text.ts";
import { isPng } from "../helpers/png.ts";
import { BINARY, httpClient, startBinary } from "../helpers/server.ts";

// NEARCAST_TEST_BINARY: run a copy, so a rebuild of dist/ in the meantime cannot pull it away.
const BIN = process.env.NEARCAST_TEST_BINARY ?? BINARY;
const PUBLIC_URL = "https://deals.example.com";
const EMAIL = "poster-owner@example.com";
const PASSWORD = "correct horse";

let dir: string;
let businessId: number;

function run(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawnSync([BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, stdout: proc.stdout, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "nearcast-poster-"));
  const created = run(["users", "create", "--email", EMAIL, "--password", PASSWORD, "--json", "--data-dir", dir]);
  expect(created.code).toBe(0);
  const ownerId = JSON.parse(created.out).id as number;
  // The same migrations as the executable: add the rows straight into its database file.
  const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
  try {
    // One of the types a fresh database is seeded with.
    const type = ctx.repos.businessTypes.list().find((t) => t.name === "Gym & Fitness")!;
    businessId = insertBusiness(ctx, { ownerId, businessTypeId: type.id, name: "Iron Harbor Gym" }).id;
  } finally {
    ctx.close();
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("nearcast poster writes a valid PDF with the embedded font", () => {
  const out = join(dir, "poster.pdf");
  const res = run(["poster", "--business", String(businessId), "--out", out, "--data-dir", dir], { NEARCAST_PUBLIC_URL: PUBLIC_URL });
  expect(res.err).toBe("");
  expect(res.code).toBe(0);
  expect(res.out).toContain('Wrote the poster of "Iron Harbor Gym"');
  expect(res.out).toContain(`Its QR code opens ${PUBLIC_URL}/subscribe?id=${businessId}`);
  const pdf = new Uint8Array(readFileSync(out));
  expect(isPdf(pdf)).toBe(true);
  const raw = Buffer.from(pdf).toString("latin1");
  expect(raw).toContain("/FontFile2");
  expect(raw).toContain("Inter-SemiBold");
  expect(raw).not.toContain("Helvetica");
  const text = pdfText(pdf);
  expect(text).toContain("Iron Harbor Gym");
  expect(text).toContain("Your first week FREE, no strings attached!");
  expect(text).toContain(`${PUBLIC_URL}/subscribe?id=${businessId}`);
  expect(text).toContain(UNSUBSCRIBE_NOTE);
  expect(text.replace(/\s*\n\s*/g, " ")).toContain(posterDisclosure(4));
});

test("--out - writes the PDF to stdout; a localhost URL gets a warning", () => {
  const res = run(["poster", "--business", String(businessId), "--out", "-", "--data-dir", dir]);
  expect(res.code).toBe(0);
  expect(isPdf(new Uint8Array(res.stdout))).toBe(true);
  expect(res.err).toContain("warning: the QR code points to http://localhost:3000");
});

test("an unknown business or a bad id is a one-line error, exit 2; --help has examples", () => {
  const missing = run(["poster", "--business", "999999", "--out", join(dir, "x.pdf"), "--data-dir", dir]);
  expect(missing.code).toBe(2);
  expect(missing.err).toBe("nearcast: Business not found.\n");
  const bad = run(["poster", "--business", "abc", "--data-dir", dir]);
  expect(bad.code).toBe(2);
  expect(bad.err).toContain("--business must be a positive whole number");
  const help = run(["poster", "--help"]);
  expect(help.code).toBe(0);
  expect(help.out).toContain("Examples:");
  expect(help.out).toContain("nearcast poster --business");
});

test("the running executable serves the QR PNG and the owner's poster", async () => {
  const server = await startBinary({ NEARCAST_PUBLIC_URL: PUBLIC_URL }, dir);
  try {
    const qr = await fetch(`${server.url}/api/business/GetQRCodeImage?id=${businessId}`);
    expect(qr.status).toBe(200);
    expect(qr.headers.get("content-type")).toBe("image/png");
    expect(isPng(new Uint8Array(await qr.arrayBuffer()))).toBe(true);
    const call = httpClient(server.url);
    const login = await call("POST", "/api/auth/Login", { email: EMAIL, password: PASSWORD });
    expect(login.status).toBe(200);
    const res = await fetch(`${server.url}/api/business/GetPosterPdf?id=${businessId}`, {
      headers: { authorization: `Bearer ${login.body.token}` },
    });
    expect(res.status).toBe(200);
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(isPdf(pdf)).toBe(true);
    expect(pdfText(pdf)).toContain("Iron Harbor Gym");
  } finally {
    await server.stop();
  }
});
