CREATE TABLE `broadcasts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`created_by` integer,
	`message_text` text NOT NULL,
	`image_path` text,
	`total` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `broadcasts_business_idx` ON `broadcasts` (`business_id`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`broadcast_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`business_id` integer NOT NULL,
	`channel` text NOT NULL,
	`to_phone` text NOT NULL,
	`status` text DEFAULT 'Queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_at` integer,
	`sent_at` integer,
	`updated_at` integer,
	`provider_id` text,
	`provider_status` text,
	`error_code` integer,
	`error_message` text,
	FOREIGN KEY (`broadcast_id`) REFERENCES `broadcasts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_broadcast_customer_unique` ON `deliveries` (`broadcast_id`,`customer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_provider_id_unique` ON `deliveries` (`provider_id`);--> statement-breakpoint
CREATE INDEX `deliveries_status_next_idx` ON `deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `deliveries_broadcast_status_idx` ON `deliveries` (`broadcast_id`,`status`);--> statement-breakpoint
CREATE INDEX `deliveries_customer_idx` ON `deliveries` (`customer_id`);