import { type ComponentType, lazy } from "react";
import type { Screens } from "./app.tsx";
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage, SetupPage } from "./features/auth/index.ts";
import { BusinessListPage } from "./features/businesses/index.ts";
import { HomePage } from "./features/home/index.ts";
import { AboutPage, FaqPage, PrivacyPage, TermsPage } from "./features/info/index.ts";
import { SubscribePage } from "./features/subscribe/index.ts";

type OwnerScreens = typeof import("./owner-screens.ts");
/** A screen of owner-screens.ts, fetched with the rest of that chunk when a route first shows it. */
const ownerScreen = (name: keyof OwnerScreens): ComponentType<{ id?: string }> =>
  lazy(() => import("./owner-screens.ts").then((m) => ({ default: m[name] as ComponentType<{ id?: string }> })));

/** The app's screen of every route in paths.ts: a route added there without a screen here does not compile. */
export const screens: Required<Screens> = {
  home: HomePage,
  about: AboutPage,
  login: LoginPage,
  register: RegisterPage,
  forgotPassword: ForgotPasswordPage,
  resetPassword: ResetPasswordPage,
  terms: TermsPage,
  privacy: PrivacyPage,
  faq: FaqPage,
  businesses: BusinessListPage,
  subscribe: SubscribePage,
  customers: ownerScreen("CustomersListPage"),
  customerAdd: ownerScreen("CustomerFormPage"),
  customerEdit: ownerScreen("CustomerFormPage"),
  myBusiness: ownerScreen("MyBusinessPage"),
  businessAdd: ownerScreen("BusinessFormPage"),
  businessEdit: ownerScreen("BusinessFormPage"),
  broadcast: ownerScreen("BroadcastPage"),
  businessTypes: ownerScreen("BusinessTypesListPage"),
  businessTypeAdd: ownerScreen("BusinessTypeFormPage"),
  businessTypeEdit: ownerScreen("BusinessTypeFormPage"),
  settings: ownerScreen("SettingsPage"),
  users: ownerScreen("UsersPage"),
  print: ownerScreen("PrintPosterPage"),
  setup: SetupPage,
  registration: ownerScreen("RegistrationPage"),
  inbox: ownerScreen("InboxPage"),
  broadcastResults: ownerScreen("ResultsPage"),
  businessDashboard: ownerScreen("DashboardPage"),
  redeem: ownerScreen("RedeemPage"),
};
