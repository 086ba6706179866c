// Every client-side route of the spec's route table, in one place.
export const paths = {
  home: "/",
  about: "/about",
  login: "/login",
  register: "/register",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  terms: "/terms",
  privacy: "/privacy",
  faq: "/faq",
  businesses: "/businesses",
  customers: "/customers",
  customerAdd: "/customers/add",
  customerEdit: (id: number | string) => `/customers/edit/${id}`,
  myBusiness: "/my-business",
  businessAdd: "/businesses/add",
  businessEdit: (id: number | string) => `/businesses/edit/${id}`,
  broadcast: (id: number | string) => `/businesses/broadcast/${id}`,
  businessTypes: "/business-types",
  businessTypeAdd: "/business-types/add",
  businessTypeEdit: (id: number | string) => `/business-types/edit/${id}`,
  subscribe: (id: number | string) => `/subscribe?id=${id}`,
} as const;

export const PRODUCT_NAME = "Nearcast";
export const CONTACT_EMAIL = "hello@nearcast.app";
