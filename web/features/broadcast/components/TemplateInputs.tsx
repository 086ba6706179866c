import { useEffect, useState } from "react";
import { MAX_TEMPLATE_VARIABLE_LENGTH, renderTemplate, type WhatsAppTemplate } from "../../../../src/schemas/whatsapp-templates.ts";
import { serverMessage } from "../../../shared/api/client.ts";
import { whatsappApi } from "../../../shared/api/whatsapp-templates.ts";
import type { TemplatePick } from "./WhatsAppTemplateField.tsx";

// The choice of an approved WhatsApp template and its variables' values: the broadcast screen's and the inbox's
// answer outside WhatsApp's 24 hours.

export const TEMPLATES_LOAD_FAILED = "The WhatsApp templates could not be loaded.";

/** The account's templates once `enabled` (null while they load), and why they could not be read. */
export function useTemplates(enabled: boolean) {
  const [templates, setTemplates] = useState<WhatsAppTemplate[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    whatsappApi.templates().then(
      (list) => !cancelled && setTemplates(Array.isArray(list) ? list : []),
      (err: unknown) => {
        if (cancelled) return;
        console.error("Error loading WhatsApp templates:", err);
        setLoadError(serverMessage((err as { body?: unknown })?.body) ?? TEMPLATES_LOAD_FAILED);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [enabled]);
  return { templates, loadError };
}

/** The field choosing one of `templates` (the approved ones the caller offers): `none` names the empty choice; under
 * it, why the templates could not be read, or the caller's `hint`. */
export function TemplateSelect({
  id,
  templates,
  value,
  onChange,
  none,
  loadError,
  hint,
}: {
  id: string;
  templates: WhatsAppTemplate[];
  value: TemplatePick | null;
  onChange: (pick: TemplatePick | null) => void;
  none: string;
  loadError: string | null;
  hint: string | null;
}) {
  function choose(sid: string) {
    const t = templates.find((x) => x.sid === sid);
    onChange(t ? { template: t, values: Object.fromEntries(t.variables.map((v) => [v.key, value?.values[v.key] ?? ""])) } : null);
  }
  return (
    <div className="field">
      <label htmlFor={id}>WhatsApp template</label>
      <select id={id} className="input" value={value?.template.sid ?? ""} onChange={(e) => choose(e.currentTarget.value)}>
        <option value="">{none}</option>
        {templates.map((t) => (
          <option key={t.sid} value={t.sid}>
            {t.name}
            {t.mediaHeader ? " (image header)" : ""}
            {t.language ? ` · ${t.language}` : ""}
          </option>
        ))}
      </select>
      {loadError ? (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      ) : (
        hint && <p className="field-hint">{hint}</p>
      )}
    </div>
  );
}

/** The template's text with the values given so far (an empty one leaves its {{key}} showing). */
export function previewText(pick: TemplatePick): string {
  return renderTemplate(pick.template.body, Object.fromEntries(Object.entries(pick.values).filter(([, x]) => x.trim())));
}

/** One input per variable of the chosen template, labelled {{key}}, its example as placeholder. */
export function TemplateVariableFields({ idPrefix, value, onChange }: { idPrefix: string; value: TemplatePick | null; onChange: (pick: TemplatePick) => void }) {
  if (!value) return null;
  return value.template.variables.map((v) => (
    <div className="field" key={v.key}>
      <label htmlFor={`${idPrefix}${v.key}`}>{`{{${v.key}}}`}</label>
      <input
        id={`${idPrefix}${v.key}`}
        className="input"
        value={value.values[v.key] ?? ""}
        placeholder={v.example}
        maxLength={MAX_TEMPLATE_VARIABLE_LENGTH}
        onChange={(e) => onChange({ ...value, values: { ...value.values, [v.key]: e.currentTarget.value } })}
      />
    </div>
  ));
}
