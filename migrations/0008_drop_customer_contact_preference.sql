-- The channel is per subscription since 0007 (each subscription got its customer row's value): the shared column goes.
ALTER TABLE `customers` DROP COLUMN `contact_preference`;
