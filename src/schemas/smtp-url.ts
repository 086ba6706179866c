// What an SMTP URL (the smtpUrl setting) asks for, read one way by the settings check, the mail worker and the setup
// checklist. A password never crosses a connection that did not start TLS: smtps:// is TLS from the first byte, and
// smtp:// with a user and password must upgrade with STARTTLS before AUTH, unless the URL says otherwise out loud
// with ?insecure=1 (a relay on the same machine or LAN that has no TLS). Without credentials there is no password
// to lose, so plain smtp:// stays allowed (STARTTLS is still used when the server offers it).

/** The one query parameter an SMTP URL may carry: `?insecure=1`. */
export const SMTP_INSECURE_PARAM = "insecure";

export interface SmtpConnection {
  host: string;
  port: number;
  /** smtps://: TLS from the start. */
  secure: boolean;
  /** smtp:// with credentials (and no ?insecure=1): STARTTLS before AUTH, or the send fails. */
  requireTLS: boolean;
  /** Decoded user and password; undefined when the URL has none. */
  auth?: { user: string; pass: string };
  /** ?insecure=1: the URL allows a password over a connection that may stay plain. */
  insecure: boolean;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // not valid percent-encoding: taken as written
  }
}

/** The connection an SMTP URL describes, or null when it is not an smtp:// or smtps:// URL this server takes. */
export function smtpConnectionOf(smtpUrl: string): SmtpConnection | null {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    return null;
  }
  const secure = url.protocol === "smtps:";
  if ((!secure && url.protocol !== "smtp:") || !url.hostname || (url.pathname !== "" && url.pathname !== "/") || url.hash) return null;
  // Only ?insecure=1: nodemailer would read any other parameter as an option (ignoreTLS=true, tls.rejectUnauthorized=
  // false...), a side door around the rule above.
  const params = [...url.searchParams];
  if (params.length > 1 || (params.length === 1 && (params[0]![0] !== SMTP_INSECURE_PARAM || params[0]![1] !== "1"))) return null;
  const insecure = params.length === 1;
  const auth = url.username || url.password ? { user: decoded(url.username), pass: decoded(url.password) } : undefined;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && !!auth && !insecure,
    auth,
    insecure,
  };
}

/** True when the URL lets a password go over a connection that may never start TLS (the checklist's amber). */
export function sendsPasswordInClear(smtpUrl: string): boolean {
  const c = smtpConnectionOf(smtpUrl);
  return !!c && !c.secure && !!c.auth && c.insecure;
}
