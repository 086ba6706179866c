ALTER TABLE `broadcasts` ADD `track_links` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `coupon_code` text;
--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `unique_coupons` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `coupon_expires_at` integer;
--> statement-breakpoint
CREATE TABLE `broadcast_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`broadcast_id` integer NOT NULL,
	`position` integer NOT NULL,
	`url` text NOT NULL,
	FOREIGN KEY (`broadcast_id`) REFERENCES `broadcasts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `broadcast_links_broadcast_position_unique` ON `broadcast_links` (`broadcast_id`,`position`);
--> statement-breakpoint
CREATE TABLE `short_links` (
	`code` text PRIMARY KEY NOT NULL,
	`delivery_id` integer NOT NULL,
	`link_id` integer NOT NULL,
	`broadcast_id` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `broadcast_links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`broadcast_id`) REFERENCES `broadcasts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `short_links_delivery_link_unique` ON `short_links` (`delivery_id`,`link_id`);
--> statement-breakpoint
CREATE TABLE `link_clicks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`broadcast_id` integer NOT NULL,
	`delivery_id` integer NOT NULL,
	`clicked_at` integer NOT NULL,
	FOREIGN KEY (`code`) REFERENCES `short_links`(`code`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`broadcast_id`) REFERENCES `broadcasts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `link_clicks_broadcast_idx` ON `link_clicks` (`broadcast_id`,`clicked_at`);
--> statement-breakpoint
CREATE INDEX `link_clicks_delivery_idx` ON `link_clicks` (`delivery_id`);
--> statement-breakpoint
CREATE INDEX `link_clicks_code_idx` ON `link_clicks` (`code`);
--> statement-breakpoint
CREATE TABLE `coupons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`broadcast_id` integer NOT NULL,
	`business_id` integer NOT NULL,
	`code` text NOT NULL,
	`delivery_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`broadcast_id`) REFERENCES `broadcasts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `coupons_code_idx` ON `coupons` (`code`);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_unique_code` ON `coupons` (`code`) WHERE delivery_id IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_delivery_unique` ON `coupons` (`delivery_id`) WHERE delivery_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `coupons_broadcast_idx` ON `coupons` (`broadcast_id`);
--> statement-breakpoint
CREATE TABLE `coupon_redemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`coupon_id` integer NOT NULL,
	`broadcast_id` integer NOT NULL,
	`customer_id` integer,
	`redeemed_by` integer,
	`redeemed_at` integer NOT NULL,
	FOREIGN KEY (`coupon_id`) REFERENCES `coupons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`broadcast_id`) REFERENCES `broadcasts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`redeemed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `coupon_redemptions_coupon_customer_idx` ON `coupon_redemptions` (`coupon_id`,`customer_id`);
--> statement-breakpoint
CREATE INDEX `coupon_redemptions_broadcast_idx` ON `coupon_redemptions` (`broadcast_id`,`redeemed_at`);
--> statement-breakpoint
CREATE INDEX `coupon_redemptions_customer_idx` ON `coupon_redemptions` (`customer_id`);
