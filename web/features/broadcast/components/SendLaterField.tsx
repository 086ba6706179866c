// "Send later": a toggle and a date-time picker. <input type="datetime-local"> gives a wall-clock time without a zone;
// it is read in the browser's time zone and sent with that zone's offset on that date (so a time across a DST change
// gets the offset it will have then), e.g. 2026-11-24T09:00:00-05:00.

/** Broadcasts may be scheduled at most this many days ahead (the server's MAX_SCHEDULE_DAYS). */
export const MAX_SCHEDULE_DAYS = 35;
export const WHEN_REQUIRED = "Choose when to send it.";
export const WHEN_PAST = "Choose a time in the future.";
export const WHEN_TOO_FAR = `Choose a time at most ${MAX_SCHEDULE_DAYS} days ahead.`;

const pad = (n: number) => String(n).padStart(2, "0");

/** "2026-11-24T09:00" (a datetime-local value) -> "2026-11-24T09:00:00-05:00" in the browser's zone; null if unreadable. */
export function sendLaterIso(local: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  if (Number.isNaN(d.getTime())) return null;
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? "+" : "-";
  const abs = Math.abs(offset);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** A Date as a datetime-local value in the browser's zone ("2026-11-24T09:00"). */
export function toLocalInput(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** What is wrong with the chosen time (the server checks again), or null. */
export function sendLaterError(local: string, now: number = Date.now()): string | null {
  const iso = local ? sendLaterIso(local) : null;
  if (!iso) return WHEN_REQUIRED;
  const at = Date.parse(iso);
  if (at <= now) return WHEN_PAST;
  if (at > now + MAX_SCHEDULE_DAYS * 86_400_000) return WHEN_TOO_FAR;
  return null;
}

/** "Tue, Nov 24, 9:00 AM" in the browser's zone. */
export function formatWhen(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString("en-US", { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

export function SendLaterField({
  enabled,
  value,
  error,
  disabled,
  onToggle,
  onChange,
}: {
  enabled: boolean;
  value: string;
  error?: string | null;
  disabled?: boolean;
  onToggle: (on: boolean) => void;
  onChange: (value: string) => void;
}) {
  const min = toLocalInput(new Date(Date.now() + 60_000));
  const max = toLocalInput(new Date(Date.now() + MAX_SCHEDULE_DAYS * 86_400_000));
  return (
    <div className="bc-later">
      <label className="checkbox bc-later-toggle">
        <input type="checkbox" role="switch" checked={enabled} disabled={disabled} onChange={(e) => onToggle(e.currentTarget.checked)} />
        <span>Send later</span>
      </label>
      {enabled && (
        <div className={`field bc-later-when${error ? " has-error" : ""}`}>
          <label htmlFor="bc-send-at">Send on</label>
          <input
            id="bc-send-at"
            type="datetime-local"
            className="input"
            value={value}
            min={min}
            max={max}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "bc-send-at-error" : "bc-send-at-hint"}
            onChange={(e) => onChange(e.currentTarget.value)}
          />
          {error ? (
            <p id="bc-send-at-error" className="field-error" role="alert">
              {error}
            </p>
          ) : (
            <p id="bc-send-at-hint" className="field-hint">
              Your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}). It goes to whoever is subscribed then; until then you can edit or cancel it below.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
