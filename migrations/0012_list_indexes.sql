DROP INDEX `broadcasts_business_idx`;--> statement-breakpoint
CREATE INDEX `broadcasts_business_kind_created_idx` ON `broadcasts` (`business_id`,`kind`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `business_types_name_nocase_idx` ON `business_types` ("name" collate nocase,`id`);--> statement-breakpoint
CREATE INDEX `businesses_public_name_idx` ON `businesses` (`name`,`id`) WHERE is_active = 1;