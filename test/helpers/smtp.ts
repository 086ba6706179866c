// A real SMTP server on loopback (the `smtp-server` package) for the email tests: it takes what nodemailer sends, the
// way a mail provider would, and keeps each message it accepted, parsed enough to read To, Subject and the bodies.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { until } from "./until.ts";

export interface ReceivedMail {
  /** The envelope: the addresses the client gave in RCPT TO, and the one in MAIL FROM. */
  rcptTo: string[];
  mailFrom: string;
  /** Header names lower-cased, values unfolded (encoded words left as sent). */
  headers: Record<string, string>;
  subject: string;
  /** The text/plain part (or the whole body of a single-part message), decoded. */
  text: string;
  /** The text/html part, decoded; "" when there is none. */
  html: string;
  /** The user the client logged in as; null without AUTH. */
  user: string | null;
  /** Whether the session was encrypted (smtps, or upgraded with STARTTLS) when the message was sent. */
  secure: boolean;
  raw: string;
}

/** An AUTH the server heard (accepted or not), and whether its connection was encrypted by then. */
export interface AuthAttempt {
  user: string;
  secure: boolean;
}

export interface SmtpOptions {
  /** When given, AUTH is required and only these credentials are accepted (535 otherwise). */
  user?: string;
  password?: string;
  /** "starttls": smtp:// that offers STARTTLS; "implicit": smtps://, TLS from the first byte; default: plain smtp://
   * with no STARTTLS at all (and AUTH allowed in the clear, so a client that sends a password there is seen doing it).
   * Either TLS mode uses a self-signed certificate for 127.0.0.1 made at test time with openssl; `ca` is it. */
  tls?: "starttls" | "implicit";
}

let testCert: { key: string; cert: string } | undefined;

/** A self-signed certificate for 127.0.0.1 and localhost, made once per test process. */
export function selfSignedCert(): { key: string; cert: string } {
  if (testCert) return testCert;
  const dir = mkdtempSync(join(tmpdir(), "nearcast-test-cert-"));
  try {
    const p = Bun.spawnSync(
      ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      { stdout: "pipe", stderr: "pipe" },
    );
    if (p.exitCode !== 0) throw new Error(`openssl could not make the test certificate: ${p.stderr.toString()}`);
    testCert = { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
    return testCert;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable": {
      const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
      // Percent-decode byte sequences (UTF-8); a literal % is escaped first so it survives.
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, "%25"));
    }
    default:
      return body;
  }
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** The decoded text/plain and text/html parts of a message (one level of multipart/alternative or mixed, nested once). */
function partsOf(headers: Record<string, string>, body: string): { text: string; html: string } {
  const type = headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!/^multipart\//i.test(type) || !boundary) {
    const decoded = decodeBody(body, headers["content-transfer-encoding"]);
    return /^text\/html/i.test(type) ? { text: "", html: decoded } : { text: decoded, html: "" };
  }
  const out = { text: "", html: "" };
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith("--")) break;
    const part = splitHeaders(chunk.replace(/^\r?\n/, ""));
    const inner = partsOf(part.headers, part.body.replace(/\r?\n$/, ""));
    out.text ||= inner.text;
    out.html ||= inner.html;
  }
  return out;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeBody(text.replace(/_/g, " "), "quoted-printable"),
    );
}

export function parseMail(raw: string): Pick<ReceivedMail, "headers" | "subject" | "text" | "html"> {
  const { headers, body } = splitHeaders(raw);
  const { text, html } = partsOf(headers, body);
  return { headers, subject: decodeWords(headers.subject ?? ""), text, html };
}

/** Starts the server on 127.0.0.1 on a free port. `url` is the SMTP URL to configure Nearcast with. */
export async function startSmtpServer(options: SmtpOptions = {}) {
  const received: ReceivedMail[] = [];
  const auths: AuthAttempt[] = [];
  const requireAuth = options.user !== undefined;
  const cert = options.tls ? selfSignedCert() : undefined;
  const server = new SMTPServer({
    ...(cert ? { key: cert.key, cert: cert.cert, secure: options.tls === "implicit" } : { disabledCommands: ["STARTTLS"] }),
    allowInsecureAuth: true,
    authOptional: !requireAuth,
    logger: false,
    onAuth(auth, session, callback) {
      auths.push({ user: auth.username ?? "", secure: !!session.secure });
      if (auth.username === options.user && auth.password === options.password) callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({
          rcptTo: session.envelope.rcptTo.map((a) => a.address),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          user: typeof session.user === "string" ? session.user : null,
          secure: !!session.secure,
          raw,
          ...parseMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  const credentials = requireAuth ? `${encodeURIComponent(options.user!)}:${encodeURIComponent(options.password ?? "")}@` : "";
  return {
    port,
    /** smtp://user:password@127.0.0.1:port (smtps:// for "implicit"; no credentials when AUTH is optional). */
    url: `${options.tls === "implicit" ? "smtps" : "smtp"}://${credentials}127.0.0.1:${port}`,
    /** The certificate to trust (the mailer's `tls.ca`, or NODE_EXTRA_CA_CERTS for the built executable). */
    ca: cert?.cert,
    received,
    /** Every AUTH heard, in order. */
    auths,
    /** Waits (polling, bounded) until `n` messages have arrived; returns them all. */
    async waitFor(n = 1, timeoutMs = 10_000): Promise<ReceivedMail[]> {
      await until(() => received.length >= n, timeoutMs, `${n} email(s) at the test SMTP server`);
      return received;
    },
    close(): Promise<void> {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** A loopback port nothing listens on (a server's, just closed): sending there is refused at once. */
export async function closedPort(): Promise<number> {
  const s = await startSmtpServer();
  await s.close();
  return s.port;
}
