CREATE INDEX `deliveries_queued_business_due_idx` ON `deliveries` (`business_id`,`next_attempt_at`) WHERE status = 'Queued';--> statement-breakpoint
CREATE INDEX `broadcasts_unfinished_idx` ON `broadcasts` (`kind`,`business_id`) WHERE completed_at IS NULL;
