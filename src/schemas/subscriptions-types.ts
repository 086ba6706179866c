export const SUBSCRIPTION_STATUSES = ["active", "unsubscribed", "removed", "pending", "unconfirmed"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** How a subscription came: the QR poster, the public list, a keyword text, an import, added by the owner. */
export const SUBSCRIPTION_SOURCES = ["qr", "list", "keyword", "import", "manual"] as const;
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];
