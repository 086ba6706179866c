import type { PublicUser, registerSchema } from "../../../src/schemas/auth.ts";
import type * as v from "valibot";
import type { BusinessType, businessTypeSchema } from "../../../src/schemas/business-types.ts";
import type { SettingsUpdate, SettingsView, SiteInfo } from "../../../src/schemas/settings.ts";
import type { SetupBody } from "../../../src/schemas/setup.ts";
import type { ChecklistItem } from "../../../src/schemas/checklist.ts";
import type { SubscriptionRequestView } from "../../../src/schemas/subscriptions.ts";
import type { Page } from "../../../src/schemas/paging.ts";
import { api, LIST_PAGE_SIZE, listQuery } from "./client.ts";

// Typed wrappers for the spec's API paths (section 7), and Nearcast's own (site, settings).
export const siteApi = {
  get: () => api.get<SiteInfo>("/api/site"),
};

// Admin only.
export const settingsApi = {
  get: () => api.get<SettingsView>("/api/settings"),
  update: (changes: SettingsUpdate) => api.put<SettingsView>("/api/settings", changes),
  /** Sends a test email to `to` (default: the admin's own address). */
  testEmail: (to?: string) => api.post<{ message: string }>("/api/settings/TestEmail", to ? { to } : {}),
  checklist: () => api.get<{ items: ChecklistItem[] }>("/api/settings/Checklist"),
};

export const authApi = {
  login: (email: string, password: string) => api.post<{ token: string; user: PublicUser }>("/api/auth/Login", { email, password }),
  register: (body: v.InferOutput<typeof registerSchema>) =>
    api.post<{ message: string }>("/api/auth/Register", body),
  currentUser: () => api.get<PublicUser>("/api/auth/GetCurrentUser"),
  /** First run: creates the first admin and logs it in (409 once an admin exists, 403 without the setup code). */
  setup: (body: SetupBody) => api.post<{ token: string; user: PublicUser }>("/api/setup", body),
  logout: () => api.post<{ message: string }>("/api/auth/Logout"),
  forgotPassword: (email: string) => api.post<{ message: string; token?: string }>("/api/auth/ForgotPassword", { email }),
  resetPassword: (token: string, newPassword: string) =>
    api.post<{ message: string }>("/api/auth/ResetPassword", { token, newPassword }),
};

/** The body of CreateBusinessType and UpdateBusinessType, as the server's schema reads it. */
export type BusinessTypeBody = Required<v.InferInput<typeof businessTypeSchema>>;

export const businessTypeApi = {
  list: () => api.get<BusinessType[]>("/api/businesstype/GetAllBusinessTypes"),
  /** The admin's screen a page at a time; `q` searches the names. */
  page: ({ q }: { q: string }, cursor: string | null) =>
    api.get<Page<BusinessType>>(`/api/businesstype/ListBusinessTypes?${listQuery({ q: q.trim(), limit: LIST_PAGE_SIZE }, cursor)}`),
  get: (id: number | string) => api.get<BusinessType>(`/api/businesstype/GetBusinessTypeById?id=${encodeURIComponent(id)}`),
  create: (body: BusinessTypeBody) => api.post<BusinessType>("/api/businesstype/CreateBusinessType", body),
  update: (id: number | string, body: BusinessTypeBody) =>
    api.put<BusinessType>(`/api/businesstype/UpdateBusinessType?id=${encodeURIComponent(id)}`, body),
  remove: (id: number | string) => api.del<{ message: string }>(`/api/businesstype/DeleteBusinessType?id=${encodeURIComponent(id)}`),
};

/** People the owner removed who asked on the public page to subscribe again (issue 10): accept or decline. */
export const subscriptionRequestApi = {
  list: () => api.get<SubscriptionRequestView[]>("/api/customer/GetSubscriptionRequests"),
  accept: (customerId: number, businessId: number) =>
    api.post<{ message: string }>("/api/customer/AcceptSubscriptionRequest", { customerId, businessId }),
  decline: (customerId: number, businessId: number) =>
    api.post<{ message: string }>("/api/customer/DeclineSubscriptionRequest", { customerId, businessId }),
};
