CREATE TABLE `inbound_messages` (
	`message_sid` text PRIMARY KEY NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `contact_preference` text DEFAULT 'SMS' NOT NULL;--> statement-breakpoint
-- Each subscription starts with the channel its customer row had (until now one preference shared by every business).
UPDATE `subscriptions` SET `contact_preference` = (SELECT `contact_preference` FROM `customers` WHERE `customers`.`id` = `subscriptions`.`customer_id`);
