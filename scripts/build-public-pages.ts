// The public pages (issue 26 item 4): rendered at build time and made live in the browser by a script of their own,
// both on Preact's React-compatible runtime (preact/compat, ~11 KB gzipped against React's 64 KB), so a phone moves
// tens of kilobytes for a page and the owner's app loads only after login. The components are the app's (React), so
// the words and the behaviour are the same; only the runtime under them differs. scripts/build.ts embeds the files.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import * as esbuild from "esbuild";
import { WEB_BUNDLE } from "./web-bundle.ts";

const root = join(import.meta.dir, "..");

/** React's imports, answered by Preact (and the signals' React binding by Preact's own, which tracks by itself). */
const ON_PREACT: esbuild.BuildOptions["alias"] = {
  react: "preact/compat",
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react-dom/server": "preact/compat/server",
  "react/jsx-runtime": "preact/jsx-runtime",
  "@preact/signals-react": "@preact/signals",
  "@preact/signals-react/runtime": join(root, "web", "public", "use-signals-on-preact.ts"),
  // wouter's shim for React 17, which preact/compat answers itself.
  "use-sync-external-store/shim/index.js": "preact/compat",
};

/**
 * The features whose parts a public screen shows only to someone logged in (the setup checklist, the public-URL
 * offer, the sandbox reply panel, the owners waiting for approval): a public page's script runs only for a visitor
 * (web/public/page.tsx hands anyone logged in the app), so web/public/owner-parts.tsx, which shows nothing, stands in.
 */
const OWNER_ONLY = ["settings", "customers", "users"].map((name) => join(root, "web", "features", name, "index.ts"));
const OWNER_PARTS_LEFT_OUT: esbuild.Plugin = {
  name: "owner-parts-left-out",
  setup(build) {
    build.onResolve({ filter: /\/index\.ts$/ }, (args) =>
      OWNER_ONLY.includes(resolve(args.resolveDir, args.path)) ? { path: join(root, "web", "public", "owner-parts.tsx") } : undefined,
    );
  },
};

/** The files of one page: its script, its stylesheet and the shared code its script imports (preloaded). */
export interface PageFiles {
  js: string;
  css: string;
  preload: string[];
}

/** index.html with a bundle's files in it. */
export function fillPage(template: string, files: PageFiles): string {
  return template
    .replace("{{js}}", `/assets/${basename(files.js)}`)
    .replace("{{css}}", `/assets/${basename(files.css)}`)
    .replace("    <script", `${files.preload.map((p) => `    <link rel="modulepreload" href="/assets/${basename(p)}" />\n`).join("")}    <script`);
}

/** The file of a rendered page, by its path ("/" is home). */
const pageName = (path: string) => (path === "/" ? "home" : path.slice(1));
/** The script of a page (web/public/<script>.tsx): its own name, but the account pages share one. */
const scriptOf = (page: string) => (["login", "register", "forgot-password"].includes(page) ? "account" : page);

/** Each page's script (web/public/<page>.tsx) bundled on Preact, with the chunks they share. */
async function bundleScripts(assetsDir: string, names: string[]): Promise<{ pages: Map<string, PageFiles>; files: string[] }> {
  const entryPoints = names.map((n) => join(root, "web", "public", `${n}.tsx`));
  const result = await esbuild.build({
    ...WEB_BUNDLE,
    entryPoints,
    outdir: assetsDir,
    entryNames: "page-[name]-[hash]",
    chunkNames: "page-shared-[hash]",
    splitting: true,
    jsx: "automatic",
    alias: ON_PREACT,
    plugins: [OWNER_PARTS_LEFT_OUT],
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const pages = new Map<string, PageFiles>();
  const outputs = Object.entries(result.metafile.outputs);
  for (const [file, out] of outputs) {
    if (!out.entryPoint || !file.endsWith(".js")) continue;
    const name = basename(out.entryPoint, ".tsx");
    if (!out.cssBundle) throw new Error(`esbuild produced no stylesheet for the public page ${name}`);
    const preload = out.imports.filter((i) => i.kind === "import-statement").map((i) => join(root, i.path));
    pages.set(name, { js: join(root, file), css: join(root, out.cssBundle), preload });
  }
  return { pages, files: outputs.map(([file]) => join(root, file)) };
}

/** web/prerender.tsx run on Preact: bundled with the same aliases, then imported. */
async function prerender(outDir: string): Promise<typeof import("../web/prerender.tsx")> {
  const outfile = join(outDir, "prerender", "prerender.mjs");
  await esbuild.build({
    entryPoints: [join(root, "web", "prerender.tsx")],
    bundle: true,
    format: "esm",
    platform: "browser",
    outfile,
    jsx: "automatic",
    alias: ON_PREACT,
    loader: { ".css": "empty" },
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  });
  return import(outfile);
}

/**
 * The public pages into outDir/pages/<page>-<sign-up mode>.html and their scripts into assetsDir. `template` is
 * index.html; `app` its files, which a page names for someone logged in (web/public/page.tsx loads them).
 * Returns the pages (by pageKey) and every file written to assetsDir.
 */
export async function buildPublicPages(
  outDir: string,
  assetsDir: string,
  template: string,
  app: PageFiles,
): Promise<{ pages: { key: string; file: string }[]; assets: string[] }> {
  const { PRERENDERED, prerenderPublicPages } = await prerender(outDir);
  const { routes } = await import("../web/shared/paths.ts");
  const { pages: scripts, files } = await bundleScripts(
    assetsDir,
    [...new Set(PRERENDERED.map((name) => scriptOf(pageName(routes[name].path))))],
  );
  const dir = join(outDir, "pages");
  mkdirSync(dir, { recursive: true });
  const appMeta = `    <meta name="nearcast-app" content="/assets/${basename(app.js)}" data-css="/assets/${basename(app.css)}" />\n`;
  const pages = prerenderPublicPages().map((page) => {
    const name = pageName(page.path);
    const file = join(dir, `${name}-${page.key.split("|")[1]}.html`);
    const title = page.title.replace(/&/g, "&amp;").replace(/</g, "&lt;");
    const files = scripts.get(scriptOf(name))!;
    // The stylesheet in the page: the words show with the HTML, not after a second request that shares the phone's
    // bandwidth with the script.
    const html = fillPage(template, files)
      .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
      .replace(`    <link rel="stylesheet" href="/assets/${basename(files.css)}" />\n`, `${appMeta}    <style>${readFileSync(files.css, "utf8")}</style>\n`)
      .replace('<div id="root"></div>', `<div id="root">${page.html}</div>`);
    writeFileSync(file, html);
    return { key: page.key, file };
  });
  return { pages, assets: files.filter((f) => relative(assetsDir, f).startsWith("page-") && f.endsWith(".js")) };
}
