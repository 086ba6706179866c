// A real SMTP server on loopback (the `smtp-server` package) for the email tests: it takes what nodemailer sends, the
// way a mail provider would, and keeps each message it accepted, parsed enough to read To, Subject and the bodies.
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
  raw: string;
}

export interface SmtpOptions {
  /** When given, AUTH is required and only these credentials are accepted (535 otherwise). */
  user?: string;
  password?: string;
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
  const requireAuth = options.user !== undefined;
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to make, and nodemailer logs in without TLS when none is offered.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: !requireAuth,
    logger: false,
    onAuth(auth, _session, callback) {
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
    /** smtp://user:password@127.0.0.1:port (no credentials when AUTH is optional). */
    url: `smtp://${credentials}127.0.0.1:${port}`,
    received,
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
