DROP INDEX `deliveries_broadcast_status_idx`;
--> statement-breakpoint
CREATE INDEX `deliveries_broadcast_status_idx` ON `deliveries` (`broadcast_id`,`status`,`channel`);
--> statement-breakpoint
CREATE INDEX `subscriptions_business_created_idx` ON `subscriptions` (`business_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `consent_events_business_kind_at_idx` ON `consent_events` (`business_id`,`kind`,`at`);
