ALTER TABLE `broadcasts` ADD `enqueued_through` integer;--> statement-breakpoint
CREATE INDEX `broadcasts_enqueuing_idx` ON `broadcasts` (`id`) WHERE enqueued_through IS NOT NULL;