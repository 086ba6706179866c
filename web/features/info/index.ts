// About, FAQ, Terms and Privacy: what the rest of web/ may import.
export { AboutPage } from "./About.tsx";
export { FaqPage } from "./Faq.tsx";
export { PrivacyPage } from "./Privacy.tsx";
export { TermsPage } from "./Terms.tsx";
