import { SelectField } from "../../shared/components/ChoiceFields.tsx";
import type { BoundText } from "../../shared/components/form.tsx";

export const TIME_ZONE_HINT = "Quiet hours follow it for customers whose number does not tell their own time zone";
export const SERVER_TIME_ZONE = "The server's time zone";

/** The zones this browser knows, plus the business's saved one if the list lacks it (an alias set through the API). */
export function offeredTimeZones(current: string): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

/** The Time Zone field (empty: the server's zone); spread `form.bind("timeZone")` into it. */
export function TimeZoneSelect(bound: BoundText) {
  const choices = offeredTimeZones(bound.value).map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }));
  return <SelectField label="Time Zone" hint={TIME_ZONE_HINT} placeholder={SERVER_TIME_ZONE} choices={choices} {...bound} name="timeZone" />;
}
