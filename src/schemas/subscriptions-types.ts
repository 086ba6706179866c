export const SUBSCRIPTION_STATUSES = ["active", "unsubscribed", "removed"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
