CREATE TABLE `inbox_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_sid` text,
	`customer_id` integer,
	`business_id` integer,
	`from_phone` text NOT NULL,
	`channel` text NOT NULL,
	`body` text,
	`media_count` integer DEFAULT 0 NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inbox_messages_sid_unique` ON `inbox_messages` (`message_sid`) WHERE message_sid IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `inbox_messages_conversation_idx` ON `inbox_messages` (`customer_id`,`business_id`,`received_at`);
--> statement-breakpoint
CREATE INDEX `inbox_messages_received_idx` ON `inbox_messages` (`received_at`);
--> statement-breakpoint
CREATE TABLE `inbox_media` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` integer NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `inbox_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `inbox_media_message_idx` ON `inbox_media` (`message_id`);
--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`business_id` integer NOT NULL,
	`channel` text NOT NULL,
	`last_message_at` integer NOT NULL,
	`preview` text DEFAULT '' NOT NULL,
	`unread` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_customer_business_unique` ON `conversations` (`customer_id`,`business_id`);
--> statement-breakpoint
CREATE INDEX `conversations_business_idx` ON `conversations` (`business_id`,`last_message_at`);
--> statement-breakpoint
CREATE TABLE `inbox_notices` (
	`business_id` integer PRIMARY KEY NOT NULL,
	`notified_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
