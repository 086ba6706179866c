import { useEffect, useState } from "react";
import { variablesProblem, type WhatsAppTemplate } from "../../../../src/schemas/whatsapp-templates.ts";
import { previewText, TemplateSelect, TemplateVariableFields, useTemplates } from "./TemplateInputs.tsx";
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
  const { templates, loadError } = useTemplates(whatsapp > 0);
  const [audience, setAudience] = useState<WhatsAppAudienceAnswer | null>(null);

  useEffect(() => {
    if (whatsapp <= 0) return;
    let cancelled = false;
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

  return (
    <fieldset className="bc-wa" data-testid="wa-template-field" disabled={disabled}>
      <legend className="bc-wa-title">
        <span className="badge badge-whatsapp">WhatsApp</span> {whatsapp} recipient{whatsapp === 1 ? "" : "s"}
      </legend>
      <TemplateSelect
        id="bc-wa-template"
        templates={approved}
        value={value}
        onChange={onChange}
        none="No template (only people who wrote in the last 24 hours)"
        loadError={loadError}
        hint={templates === null ? "Loading templates..." : approved.length === 0 ? "No approved template yet: see Settings." : "SMS recipients get the message above; WhatsApp gets the template."}
      />

      <TemplateVariableFields idPrefix="bc-wa-var-" value={value} onChange={onChange} />

      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}

      {value && (
        <div className="bc-wa-preview" data-testid="wa-preview" aria-label="WhatsApp preview">
          {value.template.mediaHeader &&
            (imageUrl ? <img className="bc-wa-media" src={imageUrl} alt="" /> : <div className="bc-wa-media is-empty">Image header: choose an image</div>)}
          <p className="bc-wa-text">{previewText(value)}</p>
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
