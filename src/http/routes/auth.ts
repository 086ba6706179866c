import { Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { DEVICE_COOKIE, DEVICE_COOKIE_TTL_S } from "../../services/device-cookies.ts";
import { toPublicUser } from "../../services/auth.ts";
import { requireUser } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { isHttps } from "../middleware/xsrf.ts";
import { clientIp, readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

export const authRoutes = new Hono<AppEnv>()
  .post("/Register", smallBody, async (c) => {
    // The same answer whether or not the email already has an account (see AuthService.register).
    return c.json(await c.var.ctx.services.auth.register(await readJson(c), clientIp(c)), 201);
  })
  .post("/Login", smallBody, async (c) => {
    // The device cookie (src/services/device-cookies.ts): shown, it may spare this login the per-address wait;
    // renewed on every successful login. Sent back only to this route.
    const devices = c.var.ctx.services.deviceCookies;
    const signedIn = await c.var.ctx.services.auth.login(await readJson(c), clientIp(c), devices.accountOf(getCookie(c, DEVICE_COOKIE)));
    setCookie(c, DEVICE_COOKIE, devices.issue(signedIn.user.id), {
      path: "/api/auth/Login",
      httpOnly: true,
      sameSite: "Lax",
      secure: isHttps(c),
      maxAge: DEVICE_COOKIE_TTL_S,
    });
    return c.json(signedIn);
  })
  .get("/GetCurrentUser", requireUser, (c) => c.json(toPublicUser(c.var.user!)))
  // The owner's own mobile for test sends: {phone}; "" clears it.
  .put("/UpdateMyPhone", requireUser, smallBody, async (c) => c.json(c.var.ctx.services.phoneVerification.updateMyPhone(c.var.user!, await readJson(c))))
  .post("/Logout", (c) => {
    if (c.var.token) c.var.ctx.services.auth.logout(c.var.token);
    return c.json({ message: "You have been logged out." });
  })
  .post("/ForgotPassword", smallBody, async (c) => {
    return c.json(c.var.ctx.services.auth.forgotPassword(await readJson(c), clientIp(c)));
  })
  .post("/ResetPassword", smallBody, async (c) => {
    return c.json(await c.var.ctx.services.auth.resetPassword(await readJson(c), clientIp(c)));
  });
