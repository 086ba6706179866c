import { Hono } from "hono";
import { VERSION } from "../../version.ts";
import type { AppEnv } from "../types.ts";


export const healthRoutes = new Hono<AppEnv>().get("/", (c) => c.json({ status: "ok", version: VERSION }));
