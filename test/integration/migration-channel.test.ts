// Migrations 0007 + 0008 on a database with data: each subscription takes the channel its customer row had, and the
// shared column goes. The database is first built up to 0006 (the last release before per-subscription channels).
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { openDb } from "../../src/db/client.ts";
import { embeddedMigrations, migrate } from "../../src/db/migrate.ts";

/** Applies the first `count` embedded migrations, the way migrate() applies them all. */
function migrateUpTo(db: ReturnType<typeof openDb>, count: number): void {
  const internal = db as unknown as { dialect: { migrate(m: MigrationMeta[], s: unknown, c: { migrationsFolder: string }): void }; session: unknown };
  internal.dialect.migrate(embeddedMigrations().slice(0, count), internal.session, { migrationsFolder: "(embedded)" });
}

test("a database at 0006 with data: after migrating, every subscription carries its customer's channel, and customers no longer have one", () => {
  const dir = mkdtempSync(join(tmpdir(), "nearcast-mig-"));
  const file = join(dir, "nearcast.db");
  try {
    const old = openDb(file);
    migrateUpTo(old, 7); // 0000 .. 0006
    const columns = (table: string) => (old.$client.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    expect(columns("customers")).toContain("contact_preference");
    expect(columns("subscriptions")).not.toContain("contact_preference");
    old.$client.exec(`
      INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES (1, 'a@example.com', 'A', 'Owner', 'x');
      INSERT INTO business_types (id, name) VALUES (900, 'Migration test type');
      INSERT INTO businesses (id, owner_id, business_type_id, name, address, phone, sample_product_text)
        VALUES (1, 1, 900, 'Bakery', '1 Main St', '+14155550100', 'Bread'), (2, 1, 900, 'Gym', '2 Main St', '+14155550100', 'Classes');
      INSERT INTO customers (id, phone, contact_preference, created_at) VALUES
        (1, '+14155550101', 'WhatsApp', 1000), (2, '+14155550102', 'SMS', 1000), (3, '+14155550103', 'WhatsApp', 1000);
      INSERT INTO subscriptions (customer_id, business_id, status, source, consent_at, consent_text, created_at) VALUES
        (1, 1, 'active', 'qr', 1000, 'c', 1000), (1, 2, 'unsubscribed', 'qr', 1000, 'c', 1000),
        (2, 1, 'active', 'manual', 1000, 'c', 1000), (3, 2, 'removed', 'list', 1000, 'c', 1000);
    `);
    old.$client.close();

    const db = openDb(file);
    migrate(db);
    const rows = db.$client
      .query("SELECT customer_id AS customerId, business_id AS businessId, status, contact_preference AS channel FROM subscriptions ORDER BY id")
      .all();
    expect(rows).toEqual([
      { customerId: 1, businessId: 1, status: "active", channel: "WhatsApp" },
      { customerId: 1, businessId: 2, status: "unsubscribed", channel: "WhatsApp" },
      { customerId: 2, businessId: 1, status: "active", channel: "SMS" },
      { customerId: 3, businessId: 2, status: "removed", channel: "WhatsApp" },
    ]);
    const customerColumns = (db.$client.query("PRAGMA table_info(customers)").all() as { name: string }[]).map((c) => c.name);
    expect(customerColumns).not.toContain("contact_preference");
    expect(customerColumns).toEqual(expect.arrayContaining(["id", "phone", "created_at"]));
    expect(db.$client.query("SELECT id, phone FROM customers ORDER BY id").all()).toEqual([
      { id: 1, phone: "+14155550101" },
      { id: 2, phone: "+14155550102" },
      { id: 3, phone: "+14155550103" },
    ]);
    db.$client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
