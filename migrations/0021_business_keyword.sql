ALTER TABLE `businesses` ADD `keyword` text;--> statement-breakpoint
CREATE UNIQUE INDEX `businesses_keyword_unique` ON `businesses` (upper("keyword"));
