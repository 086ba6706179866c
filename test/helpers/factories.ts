// Row factories for test setup: insert straight into the tables (no services, no HTTP), so a test can build the
// world it needs — e.g. a business using a type — before exercising the code under test.
import type { AppContext } from "../../src/context.ts";
import { businesses, businessTypes, users } from "../../src/db/schema.ts";

/** What a row factory needs of a context: its database. */
export type Ctx = Pick<AppContext, "db">;

export type UserRow = typeof users.$inferSelect;
export type BusinessTypeRow = typeof businessTypes.$inferSelect;
export type BusinessRow = typeof businesses.$inferSelect;

/** A factory file's own sequence (1, 2, 3...), for names and numbers no other row of it has. */
export function counter(): () => number {
  let seq = 0;
  return () => ++seq;
}
const next = counter();

/** A user row. The password hash is a placeholder: this user cannot log in (use signUp() for that). */
export function insertUser(ctx: Ctx, overrides: Partial<typeof users.$inferInsert> = {}): UserRow {
  const n = next();
  return ctx.db
    .insert(users)
    .values({
      email: `factory-user${n}@example.com`,
      firstName: "Fay",
      lastName: `Tory${n}`,
      passwordHash: "not-a-real-hash",
      role: "owner",
      ...overrides,
    })
    .returning()
    .get();
}

export function insertBusinessType(ctx: Ctx, overrides: Partial<typeof businessTypes.$inferInsert> = {}): BusinessTypeRow {
  const n = next();
  return ctx.db
    .insert(businessTypes)
    .values({ name: `Factory Type ${n}`, description: "", isActive: true, ...overrides })
    .returning()
    .get();
}

/** A business; creates its owner and its type when they are not given. */
export function insertBusiness(
  ctx: Ctx,
  overrides: Partial<typeof businesses.$inferInsert> = {},
): BusinessRow {
  const n = next();
  const ownerId = overrides.ownerId ?? insertUser(ctx).id;
  const businessTypeId = overrides.businessTypeId ?? insertBusinessType(ctx).id;
  return ctx.db
    .insert(businesses)
    .values({
      name: `Factory Business ${n}`,
      address: `${n} Main Street, Springfield`,
      phone: "+14155550100",
      sampleProductText: "Fresh bread daily",
      isActive: true,
      ...overrides,
      ownerId,
      businessTypeId,
    })
    .returning()
    .get();
}

/** A new owner (a user row) and a business of theirs for each name, in order. */
export function insertOwnerBusinesses<Names extends string[]>(ctx: Ctx, ...names: Names): { [K in keyof Names]: BusinessRow } {
  const owner = insertUser(ctx);
  return names.map((name) => insertBusiness(ctx, { ownerId: owner.id, name })) as { [K in keyof Names]: BusinessRow };
}

/** Every business type row, in id order: for "nothing changed" checks. */
export function allBusinessTypes(ctx: Ctx): BusinessTypeRow[] {
  return ctx.db.select().from(businessTypes).orderBy(businessTypes.id).all();
}

/** How many business types a fresh database starts with (migrations/0006_settings_and_seed_types.sql). */
export const SEEDED_TYPES = 8;
