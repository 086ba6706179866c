import { useMemo } from "react";
import type { SettingsView } from "../../../src/schemas/settings.ts";
import { ApiError } from "../../shared/api/client.ts";
import { useForm } from "../../shared/components/form.tsx";
import { SubmitButton } from "../../shared/components/FormActions.tsx";
import { useLeaveGuard } from "../../shared/components/useLeaveGuard.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { loadSite } from "../../shared/state/site.ts";
import { notify } from "../../shared/state/toasts.ts";
import { settingsApi } from "./api.ts";
import { useSettingFields } from "./components/setting-fields.tsx";
import {
  BrandSection,
  EmailSection,
  MessagesSection,
  PublicAddressSection,
  QuietHoursSection,
  SignupsSection,
  UploadsSection,
} from "./components/SettingsSections.tsx";
import { changesOf, settingsFormSchema, valuesOf } from "./settings-form.ts";

export const SAVED_TITLE = "Settings Saved";
export const SAVED_MESSAGE = "The new settings are in use.";
export const NOT_SAVED_TITLE = "Settings Not Saved";

/** The settings, one section a card; Save sends only what changed. */
export function SettingsForm({ view, onSaved }: { view: SettingsView; onSaved: (next: SettingsView) => void }) {
  const initial = useMemo(() => valuesOf(view), [view]);
  const form = useForm(settingsFormSchema, initial);
  const { removed, field, secret } = useSettingFields(view, form);
  const changes = changesOf(view, initial, form.values, removed);
  const dirty = Object.keys(changes).length > 0;

  const { busy, onSubmit, formRef } = useSubmit(form, {
    blocked: !dirty,
    async send() {
      const next = await settingsApi.update(changes);
      notify.success(SAVED_TITLE, SAVED_MESSAGE);
      // Brand and public URL show everywhere (footer, QR modal, posters): read them again.
      void loadSite();
      onSaved(next);
    },
    fail(err) {
      if (err instanceof ApiError && err.status === 400) form.setServerErrors(err.fields);
      notify.error(NOT_SAVED_TITLE, err instanceof Error ? err.message : String(err));
    },
  });

  // The page is long (a phone scrolls a long way to Save): a nav tap must not drop what was typed.
  const leaveDialog = useLeaveGuard(dirty && !busy);

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Settings" className="settings-form">
      <PublicAddressSection view={view} form={form} field={field} />
      <BrandSection field={field} />
      <MessagesSection view={view} field={field} secret={secret} />
      <EmailSection view={view} field={field} secret={secret} />
      <UploadsSection field={field} />
      <QuietHoursSection field={field} />
      <SignupsSection field={field} />

      <div className={`form-actions settings-actions${dirty ? " is-dirty" : ""}`} data-testid="settings-save-bar">
        {dirty && <span className="muted settings-unsaved">Unsaved changes</span>}
        <SubmitButton busy={busy} disabled={!dirty} label="Save Settings" busyLabel="Saving..." />
      </div>
      {leaveDialog}
    </form>
  );
}
