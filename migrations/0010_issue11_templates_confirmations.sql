CREATE TABLE `customer_inbound` (
	`customer_id` integer NOT NULL,
	`channel` text NOT NULL,
	`last_inbound_at` integer NOT NULL,
	PRIMARY KEY(`customer_id`, `channel`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `kind` text DEFAULT 'promotion' NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `origin` text;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `content_sid` text;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `content_variables` text;--> statement-breakpoint
CREATE INDEX `broadcasts_confirmation_idx` ON `broadcasts` (`created_at`) WHERE kind = 'confirmation';--> statement-breakpoint
ALTER TABLE `businesses` ADD `double_opt_in` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `customers` ADD `whatsapp_marketing_stopped_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `phone` text;