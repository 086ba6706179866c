import { Hono } from "hono";
import type { AppEnv } from "../types.ts";

export const VERSION = "0.1.0";

export const healthRoutes = new Hono<AppEnv>().get("/", (c) => c.json({ status: "ok", version: VERSION }));
