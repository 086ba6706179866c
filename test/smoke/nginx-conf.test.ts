// Issue 21 item 1: the shipped deploy/nginx.conf answers only the shop's own name. Any other Host (a forged one such
// as the audit's evil.example, or the bare IP address) is closed without an answer (444) on HTTP and HTTPS, and never
// reaches Nearcast; the shop's name is redirected to HTTPS and proxied with its Host. The file itself, run by the
// nginx installed here on loopback ports (its listen ports, certificate paths and upstream swapped for the test's),
// with curl sending the requests.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server, Subprocess } from "bun";
import { until } from "../helpers/until.ts";

const CONF = readFileSync(join(import.meta.dir, "..", "..", "deploy", "nginx.conf"), "utf8");
const NGINX = "/usr/sbin/nginx";

/** The server blocks of the file: their text, from "server {" to its closing brace. */
const servers = (conf: string) => conf.split(/^server \{$/m).slice(1).map((b) => b.slice(0, b.search(/^\}$/m)));

test("a default server for each port closes unknown hosts with 444; the shop's servers name it", () => {
  const blocks = servers(CONF);
  const defaults = blocks.filter((b) => /listen [^;]*default_server;/.test(b));
  expect(defaults.map((b) => [/listen (\d+)/.exec(b)?.[1], /return 444;/.test(b), /server_name _;/.test(b)])).toEqual([
    ["80", true, true],
    ["443", true, true],
  ]);
  expect(defaults[1]).toContain("ssl_reject_handshake on;");
  const shop = blocks.filter((b) => !b.includes("default_server"));
  expect(shop.map((b) => /server_name ([^;]+);/.exec(b)?.[1])).toEqual(["deals.example.com", "deals.example.com"]);
});

if (!existsSync(NGINX)) console.log("nginx-conf test: nginx is not installed here (apt-get install nginx-light), the file is not run");

describe.skipIf(!existsSync(NGINX))("deploy/nginx.conf run by nginx", () => {
  let dir: string;
  let nginx: Subprocess;
  let upstream: Server<undefined>;
  let httpPort: number;
  let httpsPort: number;
  const seen: string[] = [];

  /** A free loopback port (asked of the OS, then let go). */
  const freePort = () => {
    const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = s.port;
    s.stop(true);
    return port;
  };

  /** curl as a process beside this one (not spawnSync: the upstream answering it runs in this process). */
  async function curl(args: string[]): Promise<{ code: number; out: string }> {
    const p = Bun.spawn(["curl", "-sS", "-k", "--max-time", "5", "-o", "-", "-w", "\n%{http_code}", ...args], { stdout: "pipe", stderr: "pipe" });
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    return { code, out };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nearcast-nginx-"));
    upstream = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        seen.push(req.headers.get("host") ?? "");
        return new Response("nearcast answered");
      },
    });
    httpPort = freePort();
    httpsPort = freePort();
    const cert = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=deals.example.com", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stderr: "pipe" });
    expect(cert.exitCode).toBe(0);
    const site = CONF.replaceAll(/^\s*listen \[::\].*$/gm, "")
      .replaceAll(/listen 80\b/g, `listen 127.0.0.1:${httpPort}`)
      .replaceAll(/listen 443\b/g, `listen 127.0.0.1:${httpsPort}`)
      .replaceAll("/etc/letsencrypt/live/deals.example.com/fullchain.pem", join(dir, "cert.pem"))
      .replaceAll("/etc/letsencrypt/live/deals.example.com/privkey.pem", join(dir, "key.pem"))
      .replaceAll("http://127.0.0.1:3000", `http://127.0.0.1:${upstream.port}`);
    writeFileSync(join(dir, "site.conf"), site);
    writeFileSync(
      join(dir, "nginx.conf"),
      `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  include ${dir}/site.conf;\n}\n`,
    );
    const check = Bun.spawnSync([NGINX, "-t", "-p", dir, "-c", join(dir, "nginx.conf")], { stderr: "pipe" });
    expect(check.stderr.toString()).toContain("test is successful");
    nginx = Bun.spawn([NGINX, "-p", dir, "-c", join(dir, "nginx.conf")], { stdout: "ignore", stderr: "pipe" });
    await until(async () => (await curl([`http://127.0.0.1:${httpPort}/`])).code !== 7, 5_000, "nginx listening");
  });

  afterAll(async () => {
    nginx?.kill("SIGQUIT");
    await nginx?.exited;
    upstream?.stop(true);
    rmSync(dir, { recursive: true, force: true });
  });

  test("HTTP: a forged Host and the bare address get no answer; the shop's name is sent to HTTPS", async () => {
    for (const host of ["evil.example", `127.0.0.1:${httpPort}`]) {
      const r = await curl(["-H", `Host: ${host}`, `http://127.0.0.1:${httpPort}/api/auth/ForgotPassword`]);
      expect({ host, code: r.code, status: r.out.trim() }).toEqual({ host, code: 52, status: "000" }); // 52: empty reply
    }
    const shop = await curl(["-H", "Host: deals.example.com", "-D", "-", `http://127.0.0.1:${httpPort}/reset-password`]);
    expect(shop.out).toContain("HTTP/1.1 301");
    expect(shop.out).toMatch(/^Location: https:\/\/deals\.example\.com\/reset-password\r$/m);
  });

  test("HTTPS: another name's handshake is refused, a forged Host after the shop's handshake gets no answer; the shop's is proxied with its Host", async () => {
    const resolve = (name: string) => ["--resolve", `${name}:${httpsPort}:127.0.0.1`];
    const other = await curl([...resolve("evil.example"), `https://evil.example:${httpsPort}/`]);
    expect(other.code).toBe(35); // 35: TLS handshake failed
    // Closed without a response: an empty reply over HTTP/1.1 (curl 52), a reset stream over HTTP/2 (curl 92).
    for (const [version, code] of [["--http1.1", 52], ["--http2", 92]] as const) {
      const forged = await curl([version, ...resolve("deals.example.com"), "-H", "Host: evil.example", `https://deals.example.com:${httpsPort}/api/health`]);
      expect({ version, code: forged.code, status: forged.out.trim() }).toEqual({ version, code, status: "000" });
    }
    expect(seen).toEqual([]);
    const shop = await curl([...resolve("deals.example.com"), `https://deals.example.com:${httpsPort}/api/health`]);
    expect(shop).toEqual({ code: 0, out: "nearcast answered\n200" });
    expect(seen).toEqual(["deals.example.com"]);
  });
});
