DROP INDEX `deliveries_provider_id_unique`;--> statement-breakpoint
DROP INDEX `deliveries_status_next_idx`;--> statement-breakpoint
CREATE INDEX `deliveries_queued_due_idx` ON `deliveries` (`next_attempt_at`) WHERE status = 'Queued';--> statement-breakpoint
CREATE INDEX `deliveries_uncertain_due_idx` ON `deliveries` (`next_attempt_at`) WHERE status = 'Uncertain';