-- Issue 23, item 4: a delivery handed to Twilio without a status callback (no public URL Twilio can reach) has its
-- outcome looked up with the Messages API instead: status_check_at is when to ask next (NULL: a callback will come,
-- or the outcome is known). Only rows waiting for a check are in the index.
ALTER TABLE `deliveries` ADD `status_check_at` integer;--> statement-breakpoint
CREATE INDEX `deliveries_status_check_idx` ON `deliveries` (`status_check_at`) WHERE status_check_at IS NOT NULL;
