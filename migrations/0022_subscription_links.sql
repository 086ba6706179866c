CREATE TABLE `subscription_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscription_links_token_hash_unique` ON `subscription_links` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `subscription_links_customer_idx` ON `subscription_links` (`customer_id`,`id`);
--> statement-breakpoint
CREATE INDEX `subscription_links_expires_idx` ON `subscription_links` (`expires_at`);
