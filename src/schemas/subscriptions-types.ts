export const SUBSCRIPTION_STATUSES = ["active", "unsubscribed", "removed", "pending"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
