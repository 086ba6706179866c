import { type TemplatePick, previewText, TemplateSelect, TemplateVariableFields, useTemplates } from "../../broadcast/index.ts";

export const NO_APPROVED_TEMPLATE = "No approved template without an image header yet: see Settings.";

/**
 * The approved WhatsApp templates to answer with (not those with an image header: an answer carries no image), the
 * values of the chosen one's variables, and how it will read.
 */
export function TemplatePicker({ value, onChange, disabled }: { value: TemplatePick | null; onChange: (pick: TemplatePick | null) => void; disabled: boolean }) {
  const { templates, loadError } = useTemplates(true);
  const usable = (templates ?? []).filter((t) => t.status === "approved" && !t.mediaHeader);
  return (
    <fieldset className="inbox-template" disabled={disabled}>
      <TemplateSelect
        id="inbox-template"
        templates={usable}
        value={value}
        onChange={onChange}
        none="Choose an approved template"
        loadError={loadError}
        hint={templates !== null && usable.length === 0 ? NO_APPROVED_TEMPLATE : null}
      />
      <TemplateVariableFields idPrefix="inbox-var-" value={value} onChange={onChange} />
      {value && (
        <p className="inbox-template-preview" aria-label="Template preview">
          {previewText(value)}
        </p>
      )}
    </fieldset>
  );
}
