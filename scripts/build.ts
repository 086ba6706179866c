// Builds the UI bundle (esbuild), embeds it with a generated manifest, and compiles the single executable.
//   bun scripts/build.ts                       UI bundle + dist/nearcast (for this machine)
//   bun scripts/build.ts --target linux-arm64  UI bundle + dist/nearcast-linux-arm64 (Bun fetches that runtime from npm)
//   bun scripts/build.ts --release             UI bundle + dist/nearcast-linux-x64, dist/nearcast-linux-arm64, dist/SHA256SUMS
//   bun scripts/build.ts --web                 UI bundle and manifest only (what the tests need)
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import * as esbuild from "esbuild";
import { buildPublicPages, fillPage } from "./build-public-pages.ts";
import { BYTECODE_ORDER } from "./record-bytecode-order.ts";
import { WEB_BUNDLE } from "./web-bundle.ts";

const root = join(import.meta.dir, "..");
const outDir = join(root, "build", "web");
const assetsDir = join(outDir, "assets");
const webOnly = process.argv.includes("--web");
const release = process.argv.includes("--release");
const targetArg = process.argv.includes("--target") ? process.argv[process.argv.indexOf("--target") + 1] : undefined;

/** The platforms a release is built for: 64-bit Linux (Bun has no 32-bit ARM target, so no armv7 Pi OS). */
export const TARGETS = ["linux-x64", "linux-arm64"] as const;
export type Target = (typeof TARGETS)[number];

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".ttf": "font/ttf",
};

/** One esbuild run into the assets folder, minified for the browsers we serve; its JS and its CSS output. */
async function bundle(
  what: string,
  options: Pick<esbuild.BuildOptions, "entryPoints" | "entryNames" | "jsx" | "define" | "splitting">,
): Promise<{ js: string; css: string; styles: string[]; chunks: string[]; preload: string[] }> {
  const result = await esbuild.build({ ...WEB_BUNDLE, outdir: assetsDir, ...options });
  const entries = new Set((options.entryPoints as string[]).map((p) => relative(root, p)));
  const outputs = Object.entries(result.metafile.outputs).map(([p, o]) => ({ file: join(root, p), entry: entries.has(o.entryPoint ?? ""), imports: o.imports }));
  const main = outputs.find((o) => o.entry && o.file.endsWith(".js"));
  const css = outputs.find((o) => o.file.endsWith(".css"))?.file;
  if (!main || !css) throw new Error(`esbuild produced no ${what}JS or CSS`);
  // With splitting, the code a screen loads with import() (the charts' uPlot) is a file of its own, and what it shares
  // with the app (esbuild's helpers) another, which the page preloads beside the app's file.
  const chunks = outputs.filter((o) => !o.entry && o.file.endsWith(".js")).map((o) => o.file);
  const preload = main.imports.filter((i) => i.kind === "import-statement").map((i) => join(root, i.path));
  const styles = outputs.filter((o) => o.file.endsWith(".css")).map((o) => o.file);
  return { js: main.file, css, styles, chunks, preload };
}

async function buildWeb(): Promise<void> {
  // Old hashed files are left in place (make clean removes them): a server already running keeps its bundle.
  mkdirSync(assetsDir, { recursive: true });
  const { js, css, chunks, preload } = await bundle("", {
    entryPoints: [join(root, "web", "main.tsx")],
    jsx: "automatic",
    entryNames: "app-[hash]",
    splitting: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const template = readFileSync(join(root, "web", "index.html"), "utf8");
  writeFileSync(join(outDir, "index.html"), fillPage(template, { js, css, preload }));
  const { pages, assets: publicAssets } = await buildPublicPages(outDir, assetsDir, template, { js, css, preload });

  // The server-rendered subscribe page's own files: its stylesheet and its small script (both inlined by the server),
  // and the stylesheet of the other pages in its shell.
  const { js: pageJs, styles: pageStyles } = await bundle("subscribe page ", {
    entryPoints: [join(root, "web", "features", "subscribe", "enhance.ts"), ...["subscribe-page.css", "shell-pages.css"].map((f) => join(root, "web", "shared", "styles", f))],
    entryNames: "[name]-[hash]",
  });
  const styleOf = (name: string) => {
    const file = pageStyles.find((f) => basename(f).startsWith(`${name}-`));
    if (!file) throw new Error(`esbuild produced no ${name}.css`);
    return file;
  };
  const pageCss = styleOf("subscribe-page");
  const shellCss = styleOf("shell-pages");

  const files = [
    { url: "/index.html", file: join(outDir, "index.html"), immutable: false },
    { url: `/assets/${basename(js)}`, file: js, immutable: true },
    { url: `/assets/${basename(css)}`, file: css, immutable: true },
    { url: `/assets/${basename(pageJs)}`, file: pageJs, immutable: true },
    { url: `/assets/${basename(pageCss)}`, file: pageCss, immutable: true },
    { url: `/assets/${basename(shellCss)}`, file: shellCss, immutable: true },
    ...[...chunks, ...publicAssets].map((file) => ({ url: `/assets/${basename(file)}`, file, immutable: true })),
  ];
  const imports: string[] = [];
  const entries: string[] = [];
  files.forEach((f, i) => {
    const raw = readFileSync(f.file);
    const gz = Bun.gzipSync(raw, { level: 9 });
    const ext = f.file.slice(f.file.lastIndexOf("."));
    const rel = `./${relative(outDir, f.file)}`;
    imports.push(`import f${i} from "${rel}" with { type: "file" };`);
    let gzRef = "";
    if (gz.length < raw.length * 0.9) {
      writeFileSync(`${f.file}.gz`, gz);
      imports.push(`import g${i} from "${rel}.gz" with { type: "file" };`);
      gzRef = `, gz: g${i}`;
    }
    entries.push(`  "${f.url}": { file: f${i}${gzRef}, type: "${TYPES[ext]}", immutable: ${f.immutable} },`);
    console.log(`  ${f.url.padEnd(32)} ${(raw.length / 1024).toFixed(1)} KB (gzip ${(gz.length / 1024).toFixed(1)} KB)`);
  });
  writeFileSync(
    join(outDir, "manifest.ts"),
    [
      "// @ts-nocheck -- generated by scripts/build.ts; the file imports are embedded by bun build --compile.",
      'import type { SubscribePageAssets } from "../../src/http/routes/subscribe-page.ts";',
      'import type { StaticAssets } from "../../src/http/static.ts";',
      ...imports,
      "",
      "export const assets: StaticAssets = {",
      ...entries,
      "};",
      "",
      `export const subscribePage: SubscribePageAssets = { css: "/assets/${basename(pageCss)}", shellCss: "/assets/${basename(shellCss)}", js: "/assets/${basename(pageJs)}" };`,
      "",
      ...pages.map((p, i) => `import page${i} from "./${relative(outDir, p.file)}" with { type: "file" };`),
      `export const publicPages: Record<string, string> = { ${pages.map((p, i) => `"${p.key}": page${i}`).join(", ")} };`,
      "",
    ].join("\n"),
  );
}

/**
 * The flags of `bun build --compile` for dist/nearcast; bench/startup.ts compiles its baselines with the same ones.
 * Measured in bench/README.md (start-up bench).
 */
export const COMPILE_FLAGS = [
  "--compile",
  "--minify",
  "--sourcemap=none",
  // JavaScriptCore bytecode made at build time: the ~5 MB bundle is not parsed at every start.
  "--bytecode",
  "--format=esm",
];

/**
 * Flags of dist/nearcast alone (not of the bench's baselines): the bytecode laid out by a recorded `serve` start
 * (scripts/record-bytecode-order.ts), and the JIT kept for code that runs often: 100x JavaScriptCore's tier-up thresholds
 * until the app calls `Bun.unsafe.setJITPolicy(1)` (src/lib/jit-policy.ts), so code that runs once at start is not compiled.
 * Both for idle RSS (issue 26 item 2; bench/README.md "Session 14").
 */
export const APP_COMPILE_FLAGS = [...(existsSync(BYTECODE_ORDER) ? [`--bytecode-order=${BYTECODE_ORDER}`] : []), "--compile-jit-policy=100"];

/** Code that runs in a Worker thread: an entry point of its own in the executable (`new Worker(new URL(...))`). */
export const WORKER_ENTRIES = [join(root, "src", "db", "checkpoint-worker.ts")];

/** Packages one rare path needs, kept out of the main bundle that every start reads (src/lib/import-separately.ts). */
export const SEPARATE_ENTRIES = ["pdfkit", "qrcode", "nodemailer"].map((name) => join(root, "src", "separate", `${name}.ts`));

/** The commit being built (short hash, ".dirty" with uncommitted changes), or "unknown" outside a git checkout. */
export function buildCommit(): string {
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
  const head = git("rev-parse", "--short=10", "HEAD");
  if (head.exitCode !== 0) return "unknown";
  const dirty = git("status", "--porcelain", "--untracked-files=no").stdout.toString().trim() !== "";
  return `${head.stdout.toString().trim()}${dirty ? ".dirty" : ""}`;
}

/** Compiles entry (a .ts file), and `workers` (each an entry point of its own: a Worker's, a separately loaded
 * package's), into one executable at outfile with COMPILE_FLAGS and `flags` (for `target`, a platform of TARGETS, or this
 * machine's; `commit` becomes src/version.ts's COMMIT). */
export function compileExecutable(
  entry: string,
  outfile: string,
  options: { cwd?: string; quiet?: boolean; workers?: string[]; target?: Target; commit?: string; flags?: string[] } = {},
): void {
  const extra = [
    ...(options.flags ?? []),
    ...(options.target ? [`--target=bun-${options.target}`] : []),
    ...(options.commit ? [`--define=NEARCAST_COMMIT=${JSON.stringify(options.commit)}`] : []),
  ];
  const proc = Bun.spawnSync([process.execPath, "build", ...COMPILE_FLAGS, ...extra, entry, ...(options.workers ?? []), "--outfile", outfile], {
    cwd: options.cwd ?? root,
    stdout: options.quiet ? "pipe" : "inherit",
    stderr: options.quiet ? "pipe" : "inherit",
  });
  if (proc.exitCode !== 0) {
    throw new Error(`bun build --compile failed (${proc.exitCode})\n${proc.stdout?.toString() ?? ""}${proc.stderr?.toString() ?? ""}`);
  }
}

/** dist/nearcast (this machine), or dist/nearcast-<target>; its path. */
function compile(target?: Target): string {
  mkdirSync(join(root, "dist"), { recursive: true });
  const outfile = join(root, "dist", target ? `nearcast-${target}` : "nearcast");
  compileExecutable(join(root, "cli", "main.ts"), outfile, { workers: [...WORKER_ENTRIES, ...SEPARATE_ENTRIES], target, commit: buildCommit(), flags: APP_COMPILE_FLAGS });
  return outfile;
}

/** Both platforms and their checksums, in the format `sha256sum -c SHA256SUMS` reads. */
function buildRelease(): void {
  const lines = TARGETS.map((target) => {
    const file = compile(target);
    return `${createHash("sha256").update(readFileSync(file)).digest("hex")}  ${basename(file)}`;
  });
  writeFileSync(join(root, "dist", "SHA256SUMS"), `${lines.join("\n")}\n`);
  console.log(lines.join("\n"));
}

if (import.meta.main) {
  if (targetArg !== undefined && !(TARGETS as readonly string[]).includes(targetArg)) {
    console.error(`build: --target must be one of ${TARGETS.join(", ")} (got ${targetArg || "nothing"})`);
    process.exit(2);
  }
  const started = performance.now();
  await buildWeb();
  if (release) buildRelease();
  else if (!webOnly) compile(targetArg as Target | undefined);
  console.log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
