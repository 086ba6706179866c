// The admin's settings, the setup checklist and the public-URL offer: what the rest of web/ may import.
export { PublicUrlOffer } from "./components/PublicUrlOffer.tsx";
export { SettingsPage } from "./SettingsPage.tsx";
export { SetupChecklist } from "./components/SetupChecklist.tsx";
