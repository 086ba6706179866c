import type { SubscriptionRequestView } from "../../../../src/schemas/subscriptions.ts";
import { api } from "../../../shared/api/client.ts";

/** People the owner removed who asked on the public page to subscribe again (issue 10): accept or decline. */
export const subscriptionRequestApi = {
  list: () => api.get<SubscriptionRequestView[]>("/api/customer/GetSubscriptionRequests"),
  accept: (customerId: number, businessId: number) =>
    api.post<{ message: string }>("/api/customer/AcceptSubscriptionRequest", { customerId, businessId }),
  decline: (customerId: number, businessId: number) =>
    api.post<{ message: string }>("/api/customer/DeclineSubscriptionRequest", { customerId, businessId }),
};
