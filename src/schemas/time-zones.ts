// IANA time zones, as this runtime's Intl knows them: the business form offers them, the API checks them, quiet
// hours and the phone-number lookup compute with them. Shared with the browser, so it uses nothing but Intl.

/** The sentence for a time zone the runtime does not know (a 400 naming `timeZone`). */
export const TIME_ZONE_UNKNOWN = "Time zone must be a time zone name such as America/New_York, or empty for the server's time zone";

const canonical = new Map<string, string | null>();

/**
 * The runtime's spelling of an IANA zone name ("europe/paris" -> "Europe/Paris"); null when Intl does not know it.
 * An offset such as "+05:00" is refused: a fixed offset would keep a business's quiet hours off by an hour half the
 * year. "Etc/Unknown" is what Intl answers when it has no zone.
 */
export function timeZoneName(zone: string): string | null {
  let name = canonical.get(zone);
  if (name === undefined) {
    try {
      const resolved = /^[A-Za-z]/.test(zone) ? new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone : null;
      name = resolved === "Etc/Unknown" ? null : resolved;
    } catch {
      name = null;
    }
    canonical.set(zone, name);
  }
  return name;
}

