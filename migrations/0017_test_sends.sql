CREATE TABLE `test_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`business_id` integer NOT NULL,
	`channel` text NOT NULL,
	`to_phone` text NOT NULL,
	`content_sid` text,
	`status` text DEFAULT 'Sending' NOT NULL,
	`provider_id` text,
	`provider_status` text,
	`error_code` integer,
	`error_message` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `test_sends_owner_idx` ON `test_sends` (`owner_id`,`id`);
