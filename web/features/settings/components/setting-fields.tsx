import { useState } from "react";
import { SETTING_DEFAULTS, type SettingKey, type SettingsView, type SettingView } from "../../../../src/schemas/settings.ts";
import type { useForm } from "../../../shared/components/form.tsx";
import { TextField } from "../../../shared/components/TextFields.tsx";
import type { settingsFormSchema } from "../settings-form.ts";

// The Settings form's two kinds of field: a plain setting (locked when the environment gives it) and a write-only
// secret (an empty field keeps it; "Remove" clears it on save).

export type SettingsFormState = ReturnType<typeof useForm<typeof settingsFormSchema>>;

/** "Set by NEARCAST_PUBLIC_URL" for a setting the environment gives; otherwise `hint`. */
function lockedHint(view: SettingView, hint?: string): string | undefined {
  return view.source === "env" ? `Set by ${view.env}` : hint;
}

/** The renderers of the form's fields, and the secrets the admin asked to remove. */
export function useSettingFields(view: SettingsView, form: SettingsFormState) {
  // Secrets the admin asked to remove (an empty secret field otherwise means "keep it").
  const [removed, setRemoved] = useState<ReadonlySet<SettingKey>>(new Set());

  /** A plain setting's field: bound to the form, locked when the environment sets it. */
  const field = (key: SettingKey, label: string, hint?: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      hint={lockedHint(view[key], hint)}
      disabled={view[key].source === "env"}
      autoComplete="off"
      placeholder={(SETTING_DEFAULTS as Partial<Record<SettingKey, string>>)[key]}
      {...extra}
      {...form.bind(key)}
    />
  );

  /** A write-only setting: an empty password field; typing replaces the saved value; "Remove" clears it. */
  const secret = (key: "twilioAuthToken" | "smtpUrl", label: string, noun: string, hint: string) => {
    const s = view[key];
    const removing = removed.has(key);
    const placeholder = s.source === "env" ? `Set by ${s.env}` : removing ? "Removed when you save" : s.set ? "Set (type a new one to replace it)" : "Not set";
    return (
      <div className="settings-secret">
        <TextField
          label={label}
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          placeholder={placeholder}
          hint={s.source === "env" ? `Set by ${s.env}${s.hint ? `: ${s.hint}` : ""}` : s.set && s.hint && !removing ? `${hint} Saved: ${s.hint}` : hint}
          disabled={s.source === "env"}
          {...form.bind(key)}
        />
        {s.source === "saved" && s.set && (
          <button
            type="button"
            className="link-button settings-remove"
            onClick={() =>
              setRemoved((old) => {
                const next = new Set(old);
                if (removing) next.delete(key);
                else next.add(key);
                return next;
              })
            }
          >
            {removing ? `Keep the saved ${noun}` : `Remove the saved ${noun}`}
          </button>
        )}
      </div>
    );
  };

  return { removed, field, secret };
}

export type SettingFields = ReturnType<typeof useSettingFields>;
