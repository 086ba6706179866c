// The Settings form's values and what a save sends: every field is text; a plain field left empty means "back to the
// default", a secret (write-only) left empty means "keep what is set". Each filled field is checked with the same
// schema as the API (src/schemas/settings.ts), so the form refuses what the server would.
import * as v from "valibot";
import { SECRET_SETTINGS, SETTING_KEYS, SETTING_SCHEMAS, type SettingKey, type SettingsUpdate, type SettingsView } from "../../../src/schemas/settings.ts";

export type SettingsValues = Record<SettingKey, string>;

/** The schema's own message for a value it refuses. */
function messageFor(key: SettingKey, input: unknown): string {
  const result = v.safeParse(SETTING_SCHEMAS[key], input);
  return result.success ? "" : result.issues[0].message;
}

/** Empty, or what the API takes for this key. */
const fieldSchema = (key: SettingKey) =>
  v.pipe(
    v.string(),
    v.check((s) => s.trim() === "" || v.is(SETTING_SCHEMAS[key], s), (issue) => messageFor(key, issue.input)),
  );

export const settingsFormSchema = v.object(
  Object.fromEntries(SETTING_KEYS.map((key) => [key, fieldSchema(key)])) as Record<SettingKey, ReturnType<typeof fieldSchema>>,
);

/** The form as the server's view fills it: the value in use, or empty (a secret is never sent to the page). A
 * default shows as empty too, so saving an untouched form does not turn the default into a saved value. */
export function valuesOf(view: SettingsView): SettingsValues {
  return Object.fromEntries(
    SETTING_KEYS.map((key) => {
      const s = view[key];
      return [key, s.secret || s.source === "default" ? "" : (s.value ?? "")];
    }),
  ) as SettingsValues;
}

/**
 * Only what changed: a plain field whose text differs from the loaded one (empty: null, back to the default), a secret
 * that was typed (or marked for removal), and never a key the environment sets.
 */
export function changesOf(view: SettingsView, initial: SettingsValues, values: SettingsValues, removed: ReadonlySet<SettingKey>): SettingsUpdate {
  const changes: SettingsUpdate = {};
  for (const key of SETTING_KEYS) {
    if (view[key].source === "env") continue;
    const text = values[key].trim();
    if (SECRET_SETTINGS.has(key)) {
      if (text !== "") changes[key] = values[key];
      else if (removed.has(key)) changes[key] = null;
    } else if (text !== initial[key].trim()) {
      changes[key] = text === "" ? null : text;
    }
  }
  return changes;
}

/** Whether messages go through Twilio with these settings (the server's rule: credentials and a sender), or the
 * sandbox. */
export function usesTwilio(view: SettingsView): boolean {
  const has = (key: SettingKey) => view[key].value !== null;
  return has("twilioAccountSid") && !!view.twilioAuthToken.set && (has("twilioFrom") || has("twilioMessagingServiceSid") || has("twilioWhatsAppFrom"));
}
