CREATE TABLE `broadcast_counts` (
	`broadcast_id` integer NOT NULL,
	`status` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`broadcast_id`, `status`, `reason`),
	FOREIGN KEY (`broadcast_id`) REFERENCES `broadcasts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Every write to deliveries moves one count in the same transaction: the counts cannot drift from the rows. The rows
-- a broadcast's enqueue writes (while broadcasts.enqueued_through is set) are counted by the enqueue, all at once.
CREATE TRIGGER `deliveries_counted_insert` AFTER INSERT ON `deliveries`
WHEN (SELECT `enqueued_through` FROM `broadcasts` WHERE `id` = NEW.`broadcast_id`) IS NULL
BEGIN
	INSERT INTO `broadcast_counts` (`broadcast_id`, `status`, `reason`, `n`)
	VALUES (NEW.`broadcast_id`, NEW.`status`, CASE WHEN NEW.`status` = 'Queued' THEN coalesce(NEW.`deferred_reason`, '') ELSE '' END, 1)
	ON CONFLICT (`broadcast_id`, `status`, `reason`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deliveries_counted_update` AFTER UPDATE OF `status`, `deferred_reason`, `broadcast_id` ON `deliveries`
WHEN OLD.`broadcast_id` IS NOT NEW.`broadcast_id` OR OLD.`status` IS NOT NEW.`status`
	OR (NEW.`status` = 'Queued' AND OLD.`deferred_reason` IS NOT NEW.`deferred_reason`)
BEGIN
	UPDATE `broadcast_counts` SET `n` = `n` - 1
	WHERE `broadcast_id` = OLD.`broadcast_id` AND `status` = OLD.`status`
		AND `reason` = CASE WHEN OLD.`status` = 'Queued' THEN coalesce(OLD.`deferred_reason`, '') ELSE '' END;
	INSERT INTO `broadcast_counts` (`broadcast_id`, `status`, `reason`, `n`)
	VALUES (NEW.`broadcast_id`, NEW.`status`, CASE WHEN NEW.`status` = 'Queued' THEN coalesce(NEW.`deferred_reason`, '') ELSE '' END, 1)
	ON CONFLICT (`broadcast_id`, `status`, `reason`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deliveries_counted_delete` AFTER DELETE ON `deliveries` BEGIN
	UPDATE `broadcast_counts` SET `n` = `n` - 1
	WHERE `broadcast_id` = OLD.`broadcast_id` AND `status` = OLD.`status`
		AND `reason` = CASE WHEN OLD.`status` = 'Queued' THEN coalesce(OLD.`deferred_reason`, '') ELSE '' END;
END;
--> statement-breakpoint
INSERT INTO `broadcast_counts` (`broadcast_id`, `status`, `reason`, `n`)
SELECT `broadcast_id`, `status`, CASE WHEN `status` = 'Queued' THEN coalesce(`deferred_reason`, '') ELSE '' END, COUNT(*)
FROM `deliveries` GROUP BY 1, 2, 3;
