import { pageDescription as descriptionOfPath } from "../../src/schemas/page-descriptions.ts";
import { subscribeLink } from "../../src/schemas/poster-text.ts";

/** The default brand (the brandName setting's); pages name the server's brand from shared/state/site.ts. */
export const PRODUCT_NAME = "Nearcast";
/** The home page's <title>; with the default brand, the same as web/index.html's (so it does not change as the app
 * starts). */
const homeTitle = (brand: string) => `${brand} — deals from the shops next door`;

/** Who may open a screen (the spec's route table, section 2): a guard redirects everyone else. */
export type Access = "public" | "login" | "admin";

/**
 * The spec's route table (section 2) plus the print page, each pattern written once: app.tsx renders one route per
 * entry (with its screen, guard and the page's title), and the links below are built from the same patterns.
 */
export const routes = {
  home: { path: "/", access: "public", title: homeTitle(PRODUCT_NAME) },
  about: { path: "/about", access: "public", title: "About" },
  login: { path: "/login", access: "public", title: "Login" },
  register: { path: "/register", access: "public", title: "Register" },
  forgotPassword: { path: "/forgot-password", access: "public", title: "Forgot Password" },
  resetPassword: { path: "/reset-password", access: "public", title: "Reset Password" },
  terms: { path: "/terms", access: "public", title: "Terms of Service" },
  privacy: { path: "/privacy", access: "public", title: "Privacy Policy" },
  faq: { path: "/faq", access: "public", title: "FAQ" },
  businesses: { path: "/businesses", access: "public", title: "Businesses" },
  subscribe: { path: "/subscribe", access: "public", title: "Subscribe" },
  customers: { path: "/customers", access: "login", title: "Customers" },
  customerAdd: { path: "/customers/add", access: "login", title: "Add Customer" },
  customerEdit: { path: "/customers/edit/:id", access: "login", title: "Edit Customer" },
  myBusiness: { path: "/my-business", access: "login", title: "My Business" },
  businessAdd: { path: "/businesses/add", access: "login", title: "Add Business" },
  businessEdit: { path: "/businesses/edit/:id", access: "login", title: "Edit Business" },
  broadcast: { path: "/businesses/broadcast/:id", access: "login", title: "Broadcast Message" },
  businessTypes: { path: "/business-types", access: "admin", title: "Business Types" },
  businessTypeAdd: { path: "/business-types/add", access: "admin", title: "Add Business Type" },
  businessTypeEdit: { path: "/business-types/edit/:id", access: "admin", title: "Edit Business Type" },
  settings: { path: "/settings", access: "admin", title: "Settings" },
  users: { path: "/users", access: "admin", title: "Users" },
  // Anyone holding the QR modal may print the poster, logged in or not.
  print: { path: "/print/:id", access: "public", title: "QR Poster" },
  setup: { path: "/setup", access: "public", title: "Set Up" },
  registration: { path: "/registration", access: "login", title: "Carrier Registration" },
  inbox: { path: "/inbox", access: "login", title: "Inbox" },
  broadcastResults: { path: "/broadcasts/results/:id", access: "login", title: "Broadcast Results" },
  businessDashboard: { path: "/businesses/dashboard/:id", access: "login", title: "Dashboard" },
  redeem: { path: "/redeem", access: "login", title: "Redeem" },
} as const satisfies Record<string, { path: string; access: Access; title: string }>;

export type RouteName = keyof typeof routes;

/** The browser tab's text for a screen: "Customers · Nearcast" (`brand`: the server's); home's is the tagline. */
export function pageTitle(name: RouteName, brand: string = PRODUCT_NAME): string {
  return name === "home" ? homeTitle(brand) : `${routes[name].title} · ${brand}`;
}

/** The page's meta description (src/schemas/page-descriptions.ts): a public page's own, else the site's. */
export function pageDescription(name: RouteName): string {
  return descriptionOfPath(routes[name].path);
}

const withId = (pattern: string) => (id: number | string) => pattern.replace(":id", String(id));

/** Every link the screens follow, built from `routes`. */
export const paths = {
  home: routes.home.path,
  about: routes.about.path,
  login: routes.login.path,
  register: routes.register.path,
  forgotPassword: routes.forgotPassword.path,
  resetPassword: routes.resetPassword.path,
  terms: routes.terms.path,
  privacy: routes.privacy.path,
  faq: routes.faq.path,
  businesses: routes.businesses.path,
  customers: routes.customers.path,
  customerAdd: routes.customerAdd.path,
  customerEdit: withId(routes.customerEdit.path),
  myBusiness: routes.myBusiness.path,
  businessAdd: routes.businessAdd.path,
  businessEdit: withId(routes.businessEdit.path),
  broadcast: withId(routes.broadcast.path),
  businessTypes: routes.businessTypes.path,
  businessTypeAdd: routes.businessTypeAdd.path,
  businessTypeEdit: withId(routes.businessTypeEdit.path),
  settings: routes.settings.path,
  users: routes.users.path,
  print: withId(routes.print.path),
  setup: routes.setup.path,
  /** The carrier registration kit of a business (?business=N), or the choice of business. */
  registration: (businessId?: number | string) => (businessId === undefined ? routes.registration.path : `${routes.registration.path}?business=${businessId}`),
  /** The same link the poster and QR code carry (one function builds it, see src/schemas/poster-text.ts). */
  subscribe: (id: number) => subscribeLink("", id),
  /** The inbox, or one conversation in it (a customer with a business). */
  inbox: (open?: { customerId: number; businessId: number }) =>
    open ? `${routes.inbox.path}?customer=${open.customerId}&business=${open.businessId}` : routes.inbox.path,
  broadcastResults: withId(routes.broadcastResults.path),
  businessDashboard: withId(routes.businessDashboard.path),
  redeem: routes.redeem.path,
} as const;

/** The query parameter of /login naming the page to return to after logging in. */
const NEXT_PARAM = "next";

/** /login, remembering `from` (path and query) as the page to return to. */
export function loginReturningTo(from: string): string {
  return from && from !== routes.home.path ? `${routes.login.path}?${NEXT_PARAM}=${encodeURIComponent(from).replaceAll("%2F", "/")}` : routes.login.path;
}

/**
 * Where login goes next, read from /login's query: only a path on this site ("/customers?x=1"), never another site
 * ("//evil.com", "/\\evil.com", "https://evil.com", or one hidden behind a tab the URL parser drops); else home.
 */
export function afterLoginPath(search: string): string {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\\\s]/.test(next)) return routes.home.path;
  return next;
}
