// What a broadcast brought in (issue 25, migrations/0023): its links and the clicks on them, its coupons and their
// redemptions. Every row hangs off a delivery or its broadcast, so `prune` and `customers forget` take them along.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { broadcasts, businesses, customers, deliveries, users } from "./schema.ts";

/** The URLs of a tracked broadcast's text, in order: what a short link redirects to. */
export const broadcastLinks = sqliteTable(
  "broadcast_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    broadcastId: integer("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    url: text("url").notNull(),
  },
  (t) => [uniqueIndex("broadcast_links_broadcast_position_unique").on(t.broadcastId, t.position)],
);

/** One code per delivery and link (`/l/<code>`), made when the delivery is sent; a resend reuses it. */
export const shortLinks = sqliteTable(
  "short_links",
  {
    code: text("code").primaryKey(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    linkId: integer("link_id")
      .notNull()
      .references(() => broadcastLinks.id, { onDelete: "cascade" }),
    broadcastId: integer("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("short_links_delivery_link_unique").on(t.deliveryId, t.linkId)],
);

/** A person following a short link (previews and scanners are not recorded). No address is kept. */
export const linkClicks = sqliteTable(
  "link_clicks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code")
      .notNull()
      .references(() => shortLinks.code, { onDelete: "cascade" }),
    broadcastId: integer("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    clickedAt: integer("clicked_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("link_clicks_broadcast_idx").on(t.broadcastId, t.clickedAt),
    index("link_clicks_delivery_idx").on(t.deliveryId),
    index("link_clicks_code_idx").on(t.code),
  ],
);

/**
 * A broadcast's offer: its shared code (delivery_id NULL, one row) or one unique code per delivery (made when the
 * delivery is sent). Codes are stored upper case; the expiry is the broadcast's coupon_expires_at.
 */
export const coupons = sqliteTable(
  "coupons",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    broadcastId: integer("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    deliveryId: integer("delivery_id").references(() => deliveries.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [
    index("coupons_code_idx").on(t.code),
    // A unique code names one person across the install; shared codes may repeat (two owners' "SAVE10").
    uniqueIndex("coupons_unique_code").on(t.code).where(sql`delivery_id IS NOT NULL`),
    uniqueIndex("coupons_delivery_unique").on(t.deliveryId).where(sql`delivery_id IS NOT NULL`),
    index("coupons_broadcast_idx").on(t.broadcastId),
  ],
);

/** A coupon redeemed at the counter: by whom (the code's person, or the phone typed with a shared code). */
export const couponRedemptions = sqliteTable(
  "coupon_redemptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    couponId: integer("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    broadcastId: integer("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    customerId: integer("customer_id").references(() => customers.id, { onDelete: "cascade" }),
    redeemedBy: integer("redeemed_by").references(() => users.id, { onDelete: "set null" }),
    redeemedAt: integer("redeemed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("coupon_redemptions_coupon_customer_idx").on(t.couponId, t.customerId),
    index("coupon_redemptions_broadcast_idx").on(t.broadcastId, t.redeemedAt),
    index("coupon_redemptions_customer_idx").on(t.customerId),
  ],
);
