// Issue 21, item 3, with the built executable: `nearcast serve` in an empty folder prints a one-time setup link with a
// code on its terminal (stderr, which is also its log); only that code creates the first admin, once; a wrong one
// makes nothing; a second serve on the same data dir prints its own code and the first's still works; after setup no
// link is printed.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";

const work = mkdtempSync(join(tmpdir(), "nearcast-setup-link-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const LINE = /First run: open (http:\/\/localhost:(\d+))\/setup\?code=([A-Za-z0-9_-]{43}) to create this server's admin account \(the link works until an admin exists\)/;
const ADMIN = { firstName: "Grace", lastName: "Hopper", email: "grace@corner-bakery.test", password: "flour-and-water" };

/** The setup line a server printed (waits for it: it follows the startup line). */
async function setupLinkOf(server: RunningBinary): Promise<{ base: string; port: string; code: string }> {
  await until(() => LINE.test(server.log()), 10_000, "the setup line");
  const [, base, port, code] = LINE.exec(server.log())!;
  return { base: base!, port: port!, code: code! };
}

test("serve prints the setup link; its code makes the admin once; a wrong one nothing; a second serve's code too", async () => {
  const dataDir = join(work, "data");
  const first = await startBinary({}, dataDir, { cwd: work });
  let second: RunningBinary | null = null;
  try {
    const link = await setupLinkOf(first);
    // Bound to 127.0.0.1, the link names localhost and the port the server listens on.
    expect(first.url).toBe(`http://127.0.0.1:${link.port}`);
    expect(link.base).toBe(`http://localhost:${link.port}`);
    // Bound to loopback (tests never open other addresses), the start-up lines say only this machine can reach it.
    expect(first.log()).toContain("Reachable only from this machine (bound to 127.0.0.1)");
    // The code is the one secret in the log: it appears in that line only.
    expect(first.log().split(link.code).length).toBe(2);

    const call = httpClient(first.url);
    expect((await call("GET", "/api/site")).body).toMatchObject({ setupNeeded: true });
    // The setup screen opens at the link.
    const page = await fetch(`${first.url}/setup?code=${link.code}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    // A second server on the same folder (standing by) prints a code of its own.
    second = await startBinary({}, dataDir, { cwd: work });
    const other = await setupLinkOf(second);
    expect(other.code).not.toBe(link.code);

    const wrong = await call("POST", "/api/setup", { ...ADMIN, code: `${link.code.slice(0, 42)}${link.code.endsWith("x") ? "y" : "x"}` });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe("setup_code_invalid");
    const missing = await call("POST", "/api/setup", ADMIN);
    expect(missing.status).toBe(403);
    expect((await call("GET", "/api/site")).body.setupNeeded).toBe(true);

    // The first server's code still works after the second started; it makes the admin, logged in.
    const made = await call("POST", "/api/setup", { ...ADMIN, code: link.code, publicUrl: "https://deals.example.com" });
    expect(made.status).toBe(201);
    expect(made.body.user).toMatchObject({ email: ADMIN.email, role: "admin" });
    expect((await call("GET", "/api/auth/GetCurrentUser", undefined, made.body.token)).body.role).toBe("admin");
    expect((await call("GET", "/api/site")).body).toMatchObject({ setupNeeded: false, publicUrl: "https://deals.example.com", publicUrlSource: "saved" });

    // Dead now: the same code, and the second server's, answer 409 on either server.
    expect((await call("POST", "/api/setup", { ...ADMIN, email: "m@x.test", code: link.code })).status).toBe(409);
    expect((await httpClient(second.url)("POST", "/api/setup", { ...ADMIN, email: "m@x.test", code: other.code })).status).toBe(409);
  } finally {
    await second?.stop();
    await first.stop();
  }

  // A restart after setup prints no link.
  const again = await startBinary({}, dataDir, { cwd: work });
  try {
    await until(() => /listening on/.test(again.log()), 10_000, "the startup line");
    expect((await httpClient(again.url)("GET", "/api/health")).status).toBe(200);
    expect(again.log()).not.toContain("First run:");
    expect(again.log()).not.toContain("/setup?code=");
  } finally {
    await again.stop();
  }
}, 60_000);

test("with NEARCAST_PUBLIC_URL the link is on it; with NEARCAST_ADMIN_EMAIL none is printed", async () => {
  const withUrl = await startBinary({ NEARCAST_PUBLIC_URL: "https://deals.example.com" });
  try {
    const onUrl = /First run: open https:\/\/deals\.example\.com\/setup\?code=[A-Za-z0-9_-]{43} /;
    await until(() => onUrl.test(withUrl.log()), 10_000, "the setup line on the public URL");
  } finally {
    await withUrl.stop();
  }
  const named = await startBinary({ NEARCAST_ADMIN_EMAIL: "boss@example.com" });
  try {
    expect((await httpClient(named.url)("GET", "/api/site")).body.setupNeeded).toBe(false);
    expect(named.log()).not.toContain("First run:");
  } finally {
    await named.stop();
  }
}, 60_000);
