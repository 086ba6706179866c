CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- A fresh database starts with business types that cover the poster's deal keywords (src/schemas/poster-text.ts),
-- so the first owner can create a business at once. A database that already has types keeps its own.
INSERT INTO `business_types` (`name`, `description`, `is_active`)
SELECT `name`, `description`, 1 FROM (
  SELECT 1 AS `ord`, 'Restaurant' AS `name`, 'Restaurants, cafés and bakeries' AS `description`
  UNION ALL SELECT 2, 'Pizza', 'Pizzerias and takeaways'
  UNION ALL SELECT 3, 'Salon & Beauty', 'Hair salons, barbers, nail and beauty studios'
  UNION ALL SELECT 4, 'Retail Shop', 'Shops and boutiques'
  UNION ALL SELECT 5, 'Real Estate', 'Estate agents and property services'
  UNION ALL SELECT 6, 'Gym & Fitness', 'Gyms, studios and personal trainers'
  UNION ALL SELECT 7, 'Auto & Car Service', 'Garages, car washes and tyre services'
  UNION ALL SELECT 8, 'Other', 'Any other local business'
) WHERE NOT EXISTS (SELECT 1 FROM `business_types`) ORDER BY `ord`;
