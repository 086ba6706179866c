import { useEffect, useState } from "react";
import { renderTemplate, variablesProblem, type WhatsAppTemplate } from "../../../../src/schemas/whatsapp-templates.ts";
import { serverMessage } from "../../../shared/api/client.ts";
import { whatsappApi } from "../../../shared/api/whatsapp-templates.ts";
import { type WhatsAppAudienceAnswer, whatsappAudienceApi } from "../api/whatsapp-audience.ts";

// The broadcast screen's WhatsApp part, shown when any recipient is on WhatsApp: an approved template (WhatsApp accepts
// nothing else from a business more than 24 hours after the person last wrote), its variables, how WhatsApp will show
// it (the image as the media header), and who will be skipped and why, before sending.

/** The chosen template and the owner's values for its variables. */
export interface TemplatePick {
  template: WhatsAppTemplate;
  values: Record<string, string>;
}

export const TEMPLATE_NEEDS_IMAGE = "This template has an image header: choose an image above.";

/** What stops sending with this pick (a variable left empty…), or null. */
export function templatePickProblem(pick: TemplatePick | null, hasImage: boolean): string | null {
  if (!pick) return null;
  const problem = variablesProblem(pick.template, pick.values);
  if (problem) return problem.replace(/^ContentVariables /, "Template variable ").replace("is missing", "is missing:");
  if (pick.template.mediaHeader && pick.template.mediaVariable && !hasImage) return TEMPLATE_NEEDS_IMAGE;
  return null;
}

/** The multipart fields of a pick (ContentSid, ContentVariables), or null without one. */
export function templateFields(pick: TemplatePick | null): { contentSid: string; contentVariables: string } | null {
  return pick ? { contentSid: pick.template.sid, contentVariables: JSON.stringify(pick.values) } : null;
}

export function WhatsAppTemplateField({
  businessId,
  whatsapp,
  value,
  onChange,
  imageUrl,
  submitted,
  disabled,
}: {
  businessId: string;
  /** Recipients on WhatsApp (from the subscriber count); nothing is shown without any. */
  whatsapp: number;
  value: TemplatePick | null;
  onChange: (pick: TemplatePick | null) => void;
  imageUrl: string | null;
  submitted: boolean;
  disabled?: boolean;
}) {
  const [templates, setTemplates] = useState<WhatsAppTemplate[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [audience, setAudience] = useState<WhatsAppAudienceAnswer | null>(null);

  useEffect(() => {
    if (whatsapp <= 0) return;
    let cancelled = false;
    whatsappApi.templates().then(
      (list) => !cancelled && setTemplates(Array.isArray(list) ? list : []),
      (err: unknown) => {
        if (cancelled) return;
        console.error("Error loading WhatsApp templates:", err);
        setLoadError(serverMessage((err as { body?: unknown })?.body) ?? "The WhatsApp templates could not be loaded.");
      },
    );
    whatsappAudienceApi.audience(businessId).then(
      (a) => !cancelled && setAudience(a),
      (err: unknown) => !cancelled && console.error("Error loading the WhatsApp audience:", err),
    );
    return () => {
      cancelled = true;
    };
  }, [businessId, whatsapp]);

  if (whatsapp <= 0) return null;
  const approved = (templates ?? []).filter((t) => t.status === "approved");
  const problem = submitted ? templatePickProblem(value, !!imageUrl) : null;
  const warning = audience ? (value ? audience.warningWithTemplate : audience.warningWithoutTemplate) : null;

  function choose(sid: string) {
    const t = approved.find((x) => x.sid === sid);
    onChange(t ? { template: t, values: Object.fromEntries(t.variables.map((v) => [v.key, value?.values[v.key] ?? ""])) } : null);
  }

  return (
    <fieldset className="bc-wa" data-testid="wa-template-field" disabled={disabled}>
      <legend className="bc-wa-title">
        <span className="badge badge-whatsapp">WhatsApp</span> {whatsapp} recipient{whatsapp === 1 ? "" : "s"}
      </legend>
      <div className="field">
        <label htmlFor="bc-wa-template">WhatsApp template</label>
        <select id="bc-wa-template" className="input" value={value?.template.sid ?? ""} onChange={(e) => choose(e.currentTarget.value)}>
          <option value="">No template (only people who wrote in the last 24 hours)</option>
          {approved.map((t) => (
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
          <p className="field-hint">
            {templates === null ? "Loading templates..." : approved.length === 0 ? "No approved template yet: see Settings." : "SMS recipients get the message above; WhatsApp gets the template."}
          </p>
        )}
      </div>

      {value &&
        value.template.variables.map((v) => (
          <div className="field" key={v.key}>
            <label htmlFor={`bc-wa-var-${v.key}`}>{`{{${v.key}}}`}</label>
            <input
              id={`bc-wa-var-${v.key}`}
              className="input"
              value={value.values[v.key] ?? ""}
              placeholder={v.example}
              maxLength={1024}
              onChange={(e) => onChange({ ...value, values: { ...value.values, [v.key]: e.currentTarget.value } })}
            />
          </div>
        ))}

      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}

      {value && (
        <div className="bc-wa-preview" data-testid="wa-preview" aria-label="WhatsApp preview">
          {value.template.mediaHeader &&
            (imageUrl ? <img className="bc-wa-media" src={imageUrl} alt="" /> : <div className="bc-wa-media is-empty">Image header: choose an image</div>)}
          <p className="bc-wa-text">{renderTemplate(value.template.body, Object.fromEntries(Object.entries(value.values).filter(([, x]) => x.trim())))}</p>
        </div>
      )}

      {warning && (
        <p className="alert alert-warning bc-wa-warning" role="status" data-testid="wa-warning">
          {warning}
        </p>
      )}
    </fieldset>
  );
}
