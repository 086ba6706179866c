// The broadcast screen: what the rest of web/ may import.
export { BroadcastPage } from "./BroadcastPage.tsx";
// The template pick's rules, which the inbox's answer outside WhatsApp's 24 hours follows too.
export { type TemplatePick, templateFields, templatePickProblem } from "./components/WhatsAppTemplateField.tsx";
