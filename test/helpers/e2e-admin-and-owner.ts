// A fresh install as its first admin and owner find it, for the browser tests: the built executable with
// NEARCAST_ADMIN_EMAIL set, both registered and logged in over HTTP, and the owner's corner bakery of the type
// "Restaurant" (seeded on a fresh database). No public URL is saved.
import { afterAll, beforeAll, expect } from "bun:test";
import { SHOP_OWNER } from "./e2e-shop.ts";
import { createCornerBakery, httpClient, type RunningBinary, startBinary } from "./server.ts";

export const FIRST_ADMIN = { firstName: "Ada", lastName: "Admin", email: "admin@corner-bakery.test", password: "flour-and-water" };

export interface AdminAndOwner {
  server: RunningBinary;
  /** Each one's bearer token. */
  tokens: Record<"admin" | "owner", string>;
  businessId: number;
}

/** Registers the beforeAll/afterAll that start and stop it; its fields are set once that beforeAll has run. */
export function useAdminAndOwner(): AdminAndOwner {
  const world = { tokens: { admin: "", owner: "" } } as AdminAndOwner;
  beforeAll(async () => {
    world.server = await startBinary({ NEARCAST_ADMIN_EMAIL: FIRST_ADMIN.email });
    const call = httpClient(world.server.url);
    for (const [who, user] of [["admin", FIRST_ADMIN], ["owner", SHOP_OWNER]] as const) {
      expect((await call("POST", "/api/auth/Register", user)).status).toBe(201);
      world.tokens[who] = ((await call("POST", "/api/auth/Login", { email: user.email, password: user.password })).body as { token: string }).token;
    }
    const types = (await call("GET", "/api/businesstype/GetAllBusinessTypes")).body as { id: number; name: string }[];
    world.businessId = await createCornerBakery(world.server.url, world.tokens.owner, types.find((t) => t.name === "Restaurant")!.id);
  });
  afterAll(async () => {
    await world.server?.stop();
  });
  return world;
}
