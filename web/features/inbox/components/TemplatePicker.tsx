import { useEffect, useState } from "react";
import { MAX_TEMPLATE_VARIABLE_LENGTH, renderTemplate, type WhatsAppTemplate } from "../../../../src/schemas/whatsapp-templates.ts";
import { serverMessage } from "../../../shared/api/client.ts";
import { whatsappApi } from "../../../shared/api/whatsapp-templates.ts";
import type { TemplatePick } from "../../broadcast/index.ts";

export const NO_APPROVED_TEMPLATE = "No approved template yet: see Settings.";
export const TEMPLATES_LOAD_FAILED = "The WhatsApp templates could not be loaded.";

/** The account's approved WhatsApp templates to answer with, the values of the chosen one's variables, and how it reads. */
export function TemplatePicker({ value, onChange, disabled }: { value: TemplatePick | null; onChange: (pick: TemplatePick | null) => void; disabled: boolean }) {
  const [templates, setTemplates] = useState<WhatsAppTemplate[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    whatsappApi.templates().then(
      (list) => live && setTemplates(Array.isArray(list) ? list : []),
      (err: unknown) => {
        console.error("Error loading WhatsApp templates:", err);
        if (live) setLoadError(serverMessage((err as { body?: unknown })?.body) ?? TEMPLATES_LOAD_FAILED);
      },
    );
    return () => {
      live = false;
    };
  }, []);
  const approved = (templates ?? []).filter((t) => t.status === "approved");

  function choose(sid: string) {
    const t = approved.find((x) => x.sid === sid);
    onChange(t ? { template: t, values: Object.fromEntries(t.variables.map((v) => [v.key, ""])) } : null);
  }

  return (
    <fieldset className="inbox-template" disabled={disabled}>
      <div className="field">
        <label htmlFor="inbox-template">WhatsApp template</label>
        <select id="inbox-template" className="input" value={value?.template.sid ?? ""} onChange={(e) => choose(e.currentTarget.value)}>
          <option value="">Choose an approved template</option>
          {approved.map((t) => (
            <option key={t.sid} value={t.sid}>
              {t.name}
              {t.language ? ` · ${t.language}` : ""}
            </option>
          ))}
        </select>
        {loadError ? (
          <p className="field-error" role="alert">
            {loadError}
          </p>
        ) : (
          templates !== null && approved.length === 0 && <p className="field-hint">{NO_APPROVED_TEMPLATE}</p>
        )}
      </div>
      {value?.template.variables.map((v) => (
        <div className="field" key={v.key}>
          <label htmlFor={`inbox-var-${v.key}`}>{`{{${v.key}}}`}</label>
          <input
            id={`inbox-var-${v.key}`}
            className="input"
            value={value.values[v.key] ?? ""}
            placeholder={v.example}
            maxLength={MAX_TEMPLATE_VARIABLE_LENGTH}
            onChange={(e) => onChange({ ...value, values: { ...value.values, [v.key]: e.currentTarget.value } })}
          />
        </div>
      ))}
      {value && (
        <p className="inbox-template-preview" aria-label="Template preview">
          {renderTemplate(value.template.body, Object.fromEntries(Object.entries(value.values).filter(([, x]) => x.trim())))}
        </p>
      )}
    </fieldset>
  );
}
