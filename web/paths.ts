import { subscribeLink } from "../src/schemas/poster-text.ts";

/** Who may open a screen (the spec's route table, section 2): a guard redirects everyone else. */
export type Access = "public" | "login" | "admin";

/**
 * The spec's route table (section 2) plus the print page, each pattern written once: app.tsx renders one route per
 * entry (with its screen and guard), and the links below are built from the same patterns.
 */
export const routes = {
  home: { path: "/", access: "public" },
  about: { path: "/about", access: "public" },
  login: { path: "/login", access: "public" },
  register: { path: "/register", access: "public" },
  forgotPassword: { path: "/forgot-password", access: "public" },
  resetPassword: { path: "/reset-password", access: "public" },
  terms: { path: "/terms", access: "public" },
  privacy: { path: "/privacy", access: "public" },
  faq: { path: "/faq", access: "public" },
  businesses: { path: "/businesses", access: "public" },
  subscribe: { path: "/subscribe", access: "public" },
  customers: { path: "/customers", access: "login" },
  customerAdd: { path: "/customers/add", access: "login" },
  customerEdit: { path: "/customers/edit/:id", access: "login" },
  myBusiness: { path: "/my-business", access: "login" },
  businessAdd: { path: "/businesses/add", access: "login" },
  businessEdit: { path: "/businesses/edit/:id", access: "login" },
  broadcast: { path: "/businesses/broadcast/:id", access: "login" },
  businessTypes: { path: "/business-types", access: "admin" },
  businessTypeAdd: { path: "/business-types/add", access: "admin" },
  businessTypeEdit: { path: "/business-types/edit/:id", access: "admin" },
  // Anyone holding the QR modal may print the poster, logged in or not.
  print: { path: "/print/:id", access: "public" },
} as const satisfies Record<string, { path: string; access: Access }>;

export type RouteName = keyof typeof routes;

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
  print: withId(routes.print.path),
  /** The same link the poster and QR code carry (one function builds it, see src/schemas/poster-text.ts). */
  subscribe: (id: number) => subscribeLink("", id),
} as const;

export const PRODUCT_NAME = "Nearcast";
export const CONTACT_EMAIL = "hello@nearcast.app";
