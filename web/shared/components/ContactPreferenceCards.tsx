import { useId } from "react";
import { CHANNEL_CHOICES } from "../../../src/schemas/channel-choice.ts";
import { CONTACT_PREFERENCES, type ContactPreference } from "../../../src/schemas/customers.ts";
import { FieldNotes, notesIds } from "./form.tsx";
import "../styles/pref-cards.css";

function ChannelIcon({ kind }: { kind: ContactPreference }) {
  return (
    <svg className="pref-icon" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {CHANNEL_CHOICES[kind].iconPaths.map((d) => (
        <path key={d} d={d} />
      ))}
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
              <span className="pref-title">{CHANNEL_CHOICES[p].title}</span>
              <span className="pref-hint">{CHANNEL_CHOICES[p].hint}</span>
            </span>
            <span className="pref-check" aria-hidden="true" />
          </label>
        ))}
      </div>
      <FieldNotes id={id} error={error} />
    </fieldset>
  );
}
