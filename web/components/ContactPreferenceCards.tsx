import { useId } from "react";
import { CONTACT_PREFERENCES, type ContactPreference } from "../../src/schemas/customers.ts";
import { FieldNotes, notesIds } from "./form.tsx";
import "../styles/customers.css";

const LABELS: Record<ContactPreference, { title: string; hint: string }> = {
  SMS: { title: "SMS", hint: "Text message" },
  WhatsApp: { title: "WhatsApp", hint: "WhatsApp message" },
};

function ChannelIcon({ kind }: { kind: ContactPreference }) {
  return (
    <svg className="pref-icon" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {kind === "SMS" ? (
        <>
          <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
          <path d="M8 9h8M8 13h5" />
        </>
      ) : (
        <>
          <path d="M3 21l1.65-4.95A8.5 8.5 0 1 1 8 19.4z" />
          <path d="M9 10c0 2.5 2.5 5 5 5l1.2-1.2-1.8-1-1 .6c-.8-.4-1.4-1-1.8-1.8l.6-1-1-1.8z" />
        </>
      )}
    </svg>
  );
}

/** SMS or WhatsApp as two large radio cards (thumb-sized on phones); a real radio group for keyboards and readers. */
export function ContactPreferenceCards({
  legend,
  value,
  error,
  name = "contactPreference",
  onChange,
  onBlur,
}: {
  legend: string;
  value: string;
  error?: string;
  name?: string;
  onChange: (value: ContactPreference) => void;
  onBlur?: () => void;
}) {
  const id = useId();
  return (
    <fieldset className={`field pref-field${error ? " has-error" : ""}`} aria-describedby={notesIds(id, undefined, error)}>
      <legend>{legend}</legend>
      <div className="pref-cards" role="radiogroup" aria-invalid={!!error}>
        {CONTACT_PREFERENCES.map((p) => (
          <label key={p} className={`pref-card${value === p ? " selected" : ""}`}>
            <input type="radio" name={name} value={p} checked={value === p} onChange={() => onChange(p)} onBlur={onBlur} />
            <ChannelIcon kind={p} />
            <span className="pref-text">
              <span className="pref-title">{LABELS[p].title}</span>
              <span className="pref-hint">{LABELS[p].hint}</span>
            </span>
            <span className="pref-check" aria-hidden="true" />
          </label>
        ))}
      </div>
      <FieldNotes id={id} error={error} />
    </fieldset>
  );
}

/** Up to `max` initials of a business name, for when it has no logo. */
export function initials(name: string, max = 2): string {
  const words = name.trim().split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  return words
    .slice(0, max)
    .map((w) => [...w.replace(/^[^\p{L}\p{N}]+/u, "")][0] ?? "")
    .join("")
    .toUpperCase();
}
