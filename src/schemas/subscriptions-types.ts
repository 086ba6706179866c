export const SUBSCRIPTION_STATUSES = ["active", "unsubscribed", "removed", "pending", "unconfirmed"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
