import { expect, test } from "bun:test";
import { apiClient, signUp } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";

test("register, login, current user", async () => {
  const ctx = testContext({ NEARCAST_ADMIN_EMAIL: "boss@example.com" });
  const api = apiClient(ctx);
  const health = await api.get("/api/health");
  expect(health.status).toBe(200);
  const admin = await signUp(api, { email: "boss@example.com" });
  const me = await api.get("/api/auth/GetCurrentUser", { token: admin.token });
  expect(me.status).toBe(200);
  expect(me.body.role).toBe("admin");
});
