// WhatsApp templates chosen for a broadcast (issue 11 item 1): ContentSid and ContentVariables checked against the
// account's approved templates, and the columns a broadcast stores for them.
import { ValidationError } from "../../errors.ts";
import { variablesProblem, type WhatsAppTemplate } from "../../schemas/whatsapp-templates.ts";
import type { WhatsAppTemplatesService } from "../whatsapp-templates.ts";

export const CONTENT_SID_UNKNOWN = "ContentSid is not one of this account's WhatsApp templates.";
export const contentSidNotApproved = (status: string) =>
  `This WhatsApp template is not approved (its status is ${status}); choose an approved one.`;
export const CONTENT_VARIABLES_WITHOUT_SID = "ContentVariables needs a ContentSid.";
export const CONTENT_VARIABLES_NOT_JSON = "ContentVariables must be a JSON object, e.g. {\"1\":\"Fresh bread\"}.";
export const TEMPLATE_NEEDS_IMAGE = "This WhatsApp template has an image header: choose an image.";

/** A template chosen for a publish, with the owner's variables checked against it. */
export interface TemplateChoice {
  template: WhatsAppTemplate;
  values: Record<string, string>;
}

/** The fields as the schema gives them: trimmed text, "" or undefined for none, null for a value that is not text. */
export interface TemplateFields {
  contentSid: string | null | undefined;
  contentVariables: string | null | undefined;
}

const invalid = (field: string, text: string) => new ValidationError(text, { [field]: text });

function parsedVariables(text: string | null): unknown {
  if (text === null) throw invalid("ContentVariables", CONTENT_VARIABLES_NOT_JSON);
  if (text === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalid("ContentVariables", CONTENT_VARIABLES_NOT_JSON);
  }
}

/** ContentSid/ContentVariables -> the approved template and checked values; null when no template is given. 400
 * naming the field for an unknown or unapproved sid, or variables that do not fit. */
export async function templateChoice(templates: WhatsAppTemplatesService | undefined, given: TemplateFields, hasImage: boolean): Promise<TemplateChoice | null> {
  const contentSid = given.contentSid ?? (given.contentSid === null ? null : "");
  const variables = given.contentVariables ?? (given.contentVariables === null ? null : "");
  if (contentSid === "") {
    if (variables !== "") throw invalid("ContentVariables", CONTENT_VARIABLES_WITHOUT_SID);
    return null;
  }
  const template = contentSid && /^HX\w{32}$/.test(contentSid) && templates ? await templates.find(contentSid) : null;
  if (!template) throw invalid("ContentSid", CONTENT_SID_UNKNOWN);
  if (template.status !== "approved") throw invalid("ContentSid", contentSidNotApproved(template.status));
  const values = parsedVariables(variables);
  const problem = variablesProblem(template, values);
  if (problem) throw invalid("ContentVariables", problem);
  if (template.mediaHeader && template.mediaVariable && !hasImage) throw invalid("Image", TEMPLATE_NEEDS_IMAGE);
  return { template, values: values as Record<string, string> };
}

/** The broadcast's template columns: the sid, and the variables as sent (the owner's, plus the media header's: the
 * stored image's file name, for a template whose media URL ends in …/uploads/{{n}}). */
export function templateColumns(choice: TemplateChoice | null, imagePath: string | null): { contentSid: string | null; contentVariables: string | null } {
  if (!choice) return { contentSid: null, contentVariables: null };
  const values = { ...choice.values };
  if (choice.template.mediaVariable && imagePath) values[choice.template.mediaVariable] = imagePath.split("/").pop()!;
  return { contentSid: choice.template.sid, contentVariables: JSON.stringify(values) };
}
