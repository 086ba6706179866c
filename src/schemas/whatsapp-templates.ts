// WhatsApp templates (Twilio Content API) as the API answers them, and the rules for their variables: shared by the
// publish check on the server and the template picker on the broadcast screen.

export type TemplateStatus = "approved" | "pending" | "received" | "rejected" | "paused" | "disabled" | "unsubmitted" | (string & {});

export interface TemplateVariable {
  /** "1", "2", … as in {{1}}. */
  key: string;
  /** The template's sample value (Twilio's `variables`), "" when none. */
  example: string;
}

export interface WhatsAppTemplate {
  /** HX… */
  sid: string;
  name: string;
  language: string | null;
  /** WhatsApp's category once submitted: MARKETING, UTILITY, AUTHENTICATION; null when unknown. */
  category: string | null;
  /** The text with its {{n}} placeholders. */
  body: string;
  /** The variables the owner fills (the media header's is filled with the broadcast's image, so it is not here). */
  variables: TemplateVariable[];
  /** twilio/media: an image goes in the header. */
  mediaHeader: boolean;
  /** The variable in the media URL (…/uploads/{{3}}): the broadcast's image file name goes there. */
  mediaVariable: string | null;
  mediaUrl: string | null;
  status: TemplateStatus;
  rejectionReason: string | null;
}

/** WhatsApp's limit on one template parameter is generous; ours keeps a variable to what one message can carry. */
export const MAX_TEMPLATE_VARIABLE_LENGTH = 1024;

/** The keys of the {{n}} placeholders in a text, in order, once each. */
export function placeholdersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/** The text with each {{n}} replaced by its value (an unknown one is left as it is). */
export function renderTemplate(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (all, key: string) => (key in values ? values[key]! : all));
}

/** Why `values` do not fit `template` (missing, extra, not text, too long), or null when they do. */
export function variablesProblem(template: Pick<WhatsAppTemplate, "variables">, values: unknown): string | null {
  if (!values || typeof values !== "object" || Array.isArray(values)) return "ContentVariables must be a JSON object, e.g. {\"1\":\"Fresh bread\"}.";
  const given = values as Record<string, unknown>;
  const wanted = template.variables.map((v) => v.key);
  const extra = Object.keys(given).filter((k) => !wanted.includes(k));
  if (extra.length) return `ContentVariables has ${extra.map((k) => `{{${k}}}`).join(", ")}, which this template does not use.`;
  for (const key of wanted) {
    const v = given[key];
    if (v === undefined) return `ContentVariables is missing {{${key}}}.`;
    if (typeof v !== "string") return `ContentVariables {{${key}}} must be text.`;
    if (!v.trim()) return `ContentVariables {{${key}}} cannot be empty.`;
    if (v.length > MAX_TEMPLATE_VARIABLE_LENGTH) return `ContentVariables {{${key}}} cannot exceed ${MAX_TEMPLATE_VARIABLE_LENGTH} characters.`;
  }
  return null;
}

/** Who a broadcast of the business would reach on WhatsApp now, for the warning shown before sending. */
export interface WhatsAppAudience {
  /** Recipients on WhatsApp. */
  whatsapp: number;
  /** Of those, who wrote to us on WhatsApp in the last 24 hours (free-form is allowed for them). */
  inWindow: number;
  /** Of those not marketing-stopped, outside the window: skipped without a template. */
  needTemplate: number;
  /** Of those not marketing-stopped, on US (+1) numbers: skipped with a (marketing) template. */
  usNumbers: number;
  /** Turned WhatsApp marketing off (Meta 131050): always skipped. */
  marketingStopped: number;
}

const people = (n: number) => `${n} WhatsApp recipient${n === 1 ? "" : "s"}`;

/** What the owner is told before sending (and the publish answer's `warning`): who on WhatsApp will be skipped and
 * why; null when nobody. */
export function whatsappSkipWarning(a: WhatsAppAudience, withTemplate: boolean): string | null {
  const parts: string[] = [];
  if (!withTemplate && a.needTemplate > 0) {
    parts.push(
      `${people(a.needTemplate)} will be skipped: WhatsApp allows only approved templates more than 24 hours after the customer's last message. Choose a template to reach them.`,
    );
  }
  if (withTemplate && a.usNumbers > 0) {
    parts.push(`${people(a.usNumbers)} on US (+1) numbers will be skipped: WhatsApp can't deliver promotions to US numbers, and they are not texted by SMS instead. Ask them to subscribe by SMS.`);
  }
  if (a.marketingStopped > 0) {
    parts.push(`${people(a.marketingStopped)} turned off marketing messages on WhatsApp and will be skipped.`);
  }
  return parts.length ? parts.join(" ") : null;
}
