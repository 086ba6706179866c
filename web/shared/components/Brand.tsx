import { useSignals } from "@preact/signals-react/runtime";
import { brandName, contactEmail } from "../state/site.ts";

// The server's brand and contact mailbox (the brandName and contactEmail settings, from GET /api/site) wherever a
// page names them; the defaults until the server has answered. Components, so a page's text written once at module
// level (the legal sections, the FAQ) still shows the value of the moment it renders.

/** The brand name, as text. */
export function BrandName() {
  useSignals();
  return <>{brandName.value}</>;
}

/** The contact address as a mailto link. */
export function ContactEmailLink() {
  useSignals();
  return <a href={`mailto:${contactEmail.value}`}>{contactEmail.value}</a>;
}
