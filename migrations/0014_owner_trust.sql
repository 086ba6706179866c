CREATE TABLE `phone_verifications` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`phone` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `text_budget` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`kind` text NOT NULL,
	`phone` text NOT NULL,
	`slot_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `text_budget_owner_slot_idx` ON `text_budget` (`owner_id`,`slot_at`);--> statement-breakpoint
CREATE INDEX `text_budget_slot_idx` ON `text_budget` (`slot_at`);--> statement-breakpoint
CREATE INDEX `text_budget_phone_slot_idx` ON `text_budget` (`phone`,`slot_at`) WHERE kind = 'confirmation';--> statement-breakpoint
ALTER TABLE `users` ADD `phone_verified_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `status` text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
CREATE INDEX `users_status_idx` ON `users` (`status`);