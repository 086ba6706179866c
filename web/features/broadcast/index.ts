// The broadcast screen: what the rest of web/ may import.
export { BroadcastPage } from "./BroadcastPage.tsx";
// The template pick, its inputs and rules, which the inbox's answer outside WhatsApp's 24 hours uses too.
export { type TemplatePick, templateFields, templatePickProblem } from "./components/WhatsAppTemplateField.tsx";
export { previewText, TemplateSelect, TemplateVariableFields, useTemplates } from "./components/TemplateInputs.tsx";
