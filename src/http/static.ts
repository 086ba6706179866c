import type { Context } from "hono";

/** One file of the UI bundle, embedded in the executable; gz is its gzip twin when that is smaller. */
export interface StaticAsset {
  file: string;
  gz?: string;
  type: string;
  immutable: boolean;
}

export type StaticAssets = Record<string, StaticAsset>;

export function serveAsset(c: Context, asset: StaticAsset): Response {
  const useGz = asset.gz && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  const headers: Record<string, string> = {
    "Content-Type": asset.type,
    "Cache-Control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    Vary: "Accept-Encoding",
  };
  if (useGz) headers["Content-Encoding"] = "gzip";
  const file = Bun.file(useGz ? asset.gz! : asset.file);
  // HEAD answers with the size a GET would send (what was there before: 0, which misleads caches and clients).
  headers["Content-Length"] = String(file.size);
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  if (c.req.method === "HEAD") return c.body(null);
  return c.body(file.stream());
}
