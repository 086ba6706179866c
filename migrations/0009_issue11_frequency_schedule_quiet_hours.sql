ALTER TABLE `broadcasts` ADD `scheduled_for` integer;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `started_at` integer;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `cancelled_at` integer;--> statement-breakpoint
CREATE INDEX `broadcasts_scheduled_idx` ON `broadcasts` (`scheduled_for`) WHERE started_at IS NULL AND cancelled_at IS NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `messages_per_week` integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `deferred_reason` text;--> statement-breakpoint
-- Every broadcast so far started when it was created.
UPDATE `broadcasts` SET `started_at` = `created_at`;
