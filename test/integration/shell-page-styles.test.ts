// Each page in the subscribe page's shell inlines the stylesheet it uses (issue 26 item 3): /subscribe and a dead
// short link only the subscribe page's own, on a phone's first flight; /program and /my-subscriptions theirs, which
// adds their rules. A page given the other's stylesheet would lose its layout with no other test noticing.
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/http/app.ts";
import { answerOf } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { insertBusiness } from "../helpers/factories.ts";

const PAGE_CSS = ".sub-card{border-radius:16px}";
const SHELL_CSS = ".sub-card{border-radius:16px}.prog-card{gap:18px}";

test("/subscribe and a dead link inline the subscribe page's stylesheet; /program and /my-subscriptions the shell pages'", async () => {
  const ctx = testContext();
  const business = insertBusiness(ctx, { name: "Sunrise Bakery" });
  const dir = mkdtempSync(join(tmpdir(), "nearcast-shell-styles-"));
  writeFileSync(join(dir, "page.css"), PAGE_CSS);
  writeFileSync(join(dir, "shell.css"), SHELL_CSS);
  writeFileSync(join(dir, "enhance.js"), "void 0;");
  const asset = (file: string, type: string) => ({ file: join(dir, file), type, immutable: true });
  const app = createApp(ctx, {
    assets: { "/assets/subscribe-page-H.css": asset("page.css", "text/css"), "/assets/shell-pages-H.css": asset("shell.css", "text/css"), "/assets/enhance-H.js": asset("enhance.js", "text/javascript") },
    subscribePage: { css: "/assets/subscribe-page-H.css", shellCss: "/assets/shell-pages-H.css", js: "/assets/enhance-H.js" },
  });
  const styleOf = async (path: string, status: number) => {
    const res = await answerOf<string>(await app.request(path, {}, { requestIP: () => ({ address: "203.0.113.1" }) }));
    expect(res.status).toBe(status);
    return res.body.match(/<style>(.*?)<\/style>/)?.[1];
  };
  expect(await styleOf(`/subscribe?id=${business.id}`, 200)).toBe(PAGE_CSS);
  expect(await styleOf("/l/nothing1", 404)).toBe(PAGE_CSS);
  expect(await styleOf(`/program?id=${business.id}`, 200)).toBe(SHELL_CSS);
  // Without a link: the page that says so, in the shell.
  expect(await styleOf("/my-subscriptions", 404)).toBe(SHELL_CSS);
});
