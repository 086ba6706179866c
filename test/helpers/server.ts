import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { FakeTwilio } from "./fake-twilio.ts";
import { png } from "./images.ts";

export const BINARY = join(import.meta.dir, "..", "..", "dist", "nearcast");

export interface RunningBinary {
  url: string;
  dataDir: string;
  proc: Subprocess;
  /** Everything the server wrote to stderr so far (its log). */
  log(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The executable to run (default dist/nearcast), e.g. a copy in a temp dir. */
  binary?: string;
  /** Working directory of the process (default: this one). */
  cwd?: string;
  /** A command the server runs under, e.g. strace and its options. */
  wrap?: string[];
  /** How long it may take to answer (default 15 s; an emulated CPU needs more). */
  startTimeoutMs?: number;
}

/** A private copy of the executable in a fresh temp folder (others may rebuild dist/ while a long test runs), and a
 * data dir beside it that does not exist yet. */
export function privateBinary(prefix: string): { work: string; bin: string; dataDir: string } {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const bin = join(work, "nearcast");
  copyFileSync(process.env.NEARCAST_TEST_BINARY ?? BINARY, bin);
  chmodSync(bin, 0o755);
  return { work, bin, dataDir: join(work, "data") };
}

/** The environment that points a server's Twilio messenger at the fake Twilio, sending SMS from `from`. */
export function fakeTwilioEnv(fake: FakeTwilio, sendRate: number, from = "+15550001111"): Record<string, string> {
  return {
    NEARCAST_PUBLIC_URL: "https://deals.example.com",
    NEARCAST_SEND_RATE: String(sendRate),
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM: from,
    TWILIO_API_BASE: fake.url,
  };
}

/** Starts dist/nearcast on a free port in a fresh temp data dir; resolves once /api/health answers. */
export async function startBinary(env: Record<string, string> = {}, dataDir?: string, options: StartOptions = {}): Promise<RunningBinary> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "nearcast-"));
  const proc = Bun.spawn([...(options.wrap ?? []), options.binary ?? BINARY, "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dir], {
    cwd: options.cwd,
    // Quiet hours and the daily cap are tested on the injected clock; a binary runs on the real one, so they are off here.
    // Owners who register send at once (DESIGN.md): the tests of approval set NEARCAST_OWNER_SIGNUP=approval.
    env: { PATH: process.env.PATH ?? "", NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0", NEARCAST_OWNER_SIGNUP: "open", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let log = "";
  const decoder = new TextDecoder();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), options.startTimeoutMs ?? 15_000);
    (async () => {
      for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
        log += decoder.decode(chunk);
        const m = /listening on (http:\/\/[^\s]+)/.exec(log);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1].replace("localhost", "127.0.0.1"));
        }
      }
      clearTimeout(timer);
      reject(new Error(`server exited:\n${log}`));
    })();
  });
  return {
    url,
    dataDir: dir,
    proc,
    log: () => log,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** fetch against a running binary the way the browser client does (XSRF cookie + header, bearer token). */
export function httpClient(baseUrl: string) {
  let xsrf: string | undefined;
  async function ensureXsrf(): Promise<string> {
    if (xsrf) return xsrf;
    const res = await fetch(`${baseUrl}/api/health`);
    const cookie = res.headers.get("set-cookie") ?? "";
    xsrf = /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1];
    if (!xsrf) throw new Error("no XSRF-TOKEN cookie");
    return xsrf;
  }
  return async function call(method: string, path: string, json?: unknown, token?: string) {
    const headers: Record<string, string> = {};
    if (method !== "GET") {
      const t = await ensureXsrf();
      headers.cookie = `XSRF-TOKEN=${t}`;
      headers["x-xsrf-token"] = t;
    }
    if (token) headers.authorization = `Bearer ${token}`;
    if (json !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, body, headers: res.headers };
  };
}

/** A PNG uploaded as a business's sample image, as the business form sends it (multipart, with the XSRF pair). */
export async function uploadSampleImage(baseUrl: string, token: string, image: Uint8Array = png(64, 64)): Promise<{ status: number; body: { filePath: string } }> {
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec((await fetch(`${baseUrl}/api/health`)).headers.get("set-cookie") ?? "")![1]!;
  const form = new FormData();
  form.append("file", new Blob([image as BlobPart], { type: "image/png" }), "loaf.png");
  const res = await fetch(`${baseUrl}/api/business/UploadSampleImage`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { filePath: string } };
}

/** The demo business of the browser tests, created over HTTP as the business form does it: the sample image
 * uploaded first (multipart, with the XSRF pair), then CreateBusiness with its path. Returns the business id. */
export async function createCornerBakery(baseUrl: string, token: string, businessTypeId: number): Promise<number> {
  const call = httpClient(baseUrl);
  const upload = await uploadSampleImage(baseUrl, token);
  if (upload.status !== 201) throw new Error(`UploadSampleImage answered ${upload.status}`);
  const { filePath } = upload.body;
  const created = await call(
    "POST",
    "/api/business/CreateBusiness",
    {
      name: "Rosa's Corner Bakery",
      businessTypeId,
      address: "1200 Valencia St, San Francisco, CA",
      phone: "(415) 555-0100",
      sampleProductText: "Sourdough loaf: $6",
      sampleImagePath: filePath,
    },
    token,
  );
  if (created.status !== 201) throw new Error(`CreateBusiness answered ${created.status}`);
  return created.body.id as number;
}
