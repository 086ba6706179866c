// The screens behind a login (an owner's, an admin's): app.tsx loads this module with import() the first time one of
// them is opened, so esbuild puts them in a chunk of their own and the public pages never fetch it (issue 26 item 4).
export { BroadcastPage } from "./features/broadcast/index.ts";
export { BusinessTypeFormPage, BusinessTypesListPage } from "./features/business-types/index.ts";
export { BusinessFormPage, MyBusinessPage, PrintPosterPage } from "./features/businesses/index.ts";
export { RedeemPage } from "./features/coupons/index.ts";
export { CustomerFormPage, CustomersListPage } from "./features/customers/index.ts";
export { DashboardPage } from "./features/dashboard/index.ts";
export { InboxPage } from "./features/inbox/index.ts";
export { RegistrationPage } from "./features/registration/index.ts";
export { ResultsPage } from "./features/results/index.ts";
export { SettingsPage } from "./features/settings/index.ts";
export { UsersPage } from "./features/users/index.ts";
