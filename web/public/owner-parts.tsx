// What the public pages' screens show only to someone logged in: the setup checklist and the public-URL offer
// (features/settings), the sandbox reply panel (features/customers) and the owners waiting for approval
// (features/users). A public page's script runs only for a visitor (page.tsx hands anyone logged in the app), so
// scripts/build-public-pages.ts points those features here, and a phone does not fetch them.
const nothing = () => null;
export { nothing as PendingOwners, nothing as PublicUrlOffer, nothing as SetupChecklist, nothing as SimulateReply };
