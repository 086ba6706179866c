// The layout's rules (../shared/DESIGN.md), checked on every run: each failure names the file and the import.
// - src/ never imports web/ or cli/ (dependencies point one way).
// - Only src/repos and src/db import drizzle-orm (any subpath) or bun:sqlite: one door to the database.
// - cli/ never imports src/repos: the CLI calls services, as the operator.
// - web/ imports from src/ only src/schemas (pure schemas and texts shared with the browser bundle).
// - cli/ and web/ never reach around those through the context: no `ctx.repos`, no `.repos.`, no `ctx.db`, no
//   `$client` (the CLI has its services and `ctx.operator`, src/services/operator.ts).
// - web/ by feature: web/features/<name>/ is reached from outside only through its index.ts (a public page's own
//   script, web/public/<page>.tsx, imports its one screen's file instead); a feature imports from
//   web/ only its own folder, web/shared/ and other features' index.ts; web/shared/ imports no feature.
// test/ and bench/ are not scanned: they may read and write the database directly to set up a world and to check
// what was stored.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..", "..");
const SCANNED = ["src", "web", "cli", "scripts"];

interface Import {
  /** The importing file, from the repository root. */
  file: string;
  /** The specifier as written. */
  spec: string;
  /** For a relative specifier, the imported path from the repository root; otherwise the specifier itself. */
  target: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(ts|tsx|mts|cts)$/.test(name) && !name.split(/[\\/]/).includes("node_modules"))
    .map((name) => join(dir, name));
}

const STATIC = /^[ \t]*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm;
const BARE = /^[ \t]*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\b(?:import|require)\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g;

/** The text without comments (a "//" right after ":" is a URL's, not a comment). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** The specifiers a file imports: static imports (type-only ones too), `export ... from`, import() and require(). */
function specifiersOf(text: string): string[] {
  const code = withoutComments(text);
  return [STATIC, BARE, DYNAMIC].flatMap((re) => [...code.matchAll(re)].map((m) => m[1]!));
}

const importOf = (file: string, spec: string): Import => ({
  file,
  spec,
  target: spec.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec,
});

function importsOf(file: string): Import[] {
  return [...new Set(specifiersOf(readFileSync(join(ROOT, file), "utf8")))].map((spec) => importOf(file, spec));
}

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);
const isDatabaseDriver = (spec: string) => spec === "drizzle-orm" || spec.startsWith("drizzle-orm/") || spec === "bun:sqlite";
const describeImport = (i: Import) => `${i.file} imports "${i.spec}"`;

const ALL = SCANNED.flatMap(sourceFiles).flatMap(importsOf);

/** "file:line: code" for each line of `text` (comments left out) that `pattern` matches. */
function usesIn(file: string, text: string, pattern: RegExp): string[] {
  return withoutComments(text)
    .split("\n")
    .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

/** The lines of cli/ and web/ that `pattern` matches. */
const usesInCliAndWeb = (pattern: RegExp) =>
  ["cli", "web"].flatMap(sourceFiles).flatMap((file) => usesIn(file, readFileSync(join(ROOT, file), "utf8"), pattern));

const CTX_REPOS = /\bctx\.repos\b/;
const DOT_REPOS = /\.repos\./;
const CTX_DB = /\bctx\.db\b/;
const SQLITE_HANDLE = /\$client\b/;

describe("import rules", () => {
  test("the scan misses no import Bun itself sees (it adds the type-only ones Bun drops)", () => {
    const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };
    // What the JSX transform itself adds to a .tsx file is no import of the source.
    const jsxRuntime = (file: string, spec: string) => file.endsWith("x") && /^(react|hono\/jsx)(\/jsx(-dev)?-runtime)?$/.test(spec);
    for (const dir of SCANNED) {
      for (const file of sourceFiles(dir)) {
        const text = readFileSync(join(ROOT, file), "utf8");
        const ours = new Set(specifiersOf(text));
        const missed = transpilers[file.endsWith("x") ? "tsx" : "ts"].scanImports(text)
          .filter((i) => !ours.has(i.path) && !jsxRuntime(file, i.path));
        expect(missed.map((i) => `${file}: "${i.path}"`)).toEqual([]);
      }
    }
    // cli/main.ts loads each command on demand: dynamic imports are seen.
    expect(ALL.some((i) => i.file === "cli/main.ts" && i.target === "cli/commands/serve.ts")).toBe(true);
    expect(specifiersOf('import type { A } from "./a.ts";\n// import b from "./b.ts";\nconst u = "https://x.test";')).toEqual(["./a.ts"]);
  });

  test("src/ never imports web/ or cli/", () => {
    const bad = ALL.filter((i) => under(i.file, "src") && (under(i.target, "web") || under(i.target, "cli")));
    expect(bad.map(describeImport)).toEqual([]);
  });

  test("only src/repos and src/db import drizzle-orm or bun:sqlite", () => {
    const bad = ALL.filter((i) => isDatabaseDriver(i.target) && !under(i.file, "src/repos") && !under(i.file, "src/db"));
    expect(bad.map(describeImport)).toEqual([]);
  });

  test("cli/ never imports src/repos", () => {
    const bad = ALL.filter((i) => under(i.file, "cli") && under(i.target, "src/repos"));
    expect(bad.map(describeImport)).toEqual([]);
  });

  test("web/ imports from src/ only src/schemas", () => {
    const bad = ALL.filter((i) => under(i.file, "web") && under(i.target, "src") && !under(i.target, "src/schemas"));
    expect(bad.map(describeImport)).toEqual([]);
  });

  test("cli/ and web/ never take the repos from the context (ctx.repos)", () => {
    expect(usesInCliAndWeb(CTX_REPOS)).toEqual([]);
    expect(usesIn("cli/x.ts", "const ids = ctx.repos.deliveries.prunableBroadcasts(0);", CTX_REPOS)).toEqual([
      "cli/x.ts:1: const ids = ctx.repos.deliveries.prunableBroadcasts(0);",
    ]);
    expect(usesIn("cli/x.ts", "// ctx.repos is for tests\nconst n = ctx.services.broadcasts;", CTX_REPOS)).toEqual([]);
  });

  test("cli/ and web/ never call a repo through any object (.repos.)", () => {
    expect(usesInCliAndWeb(DOT_REPOS)).toEqual([]);
    expect(usesIn("web/x.ts", "const app = c.var.app;\napp.repos.users.findById(1);", DOT_REPOS)).toEqual(["web/x.ts:2: app.repos.users.findById(1);"]);
  });

  test("cli/ and web/ never take the database from the context (ctx.db)", () => {
    expect(usesInCliAndWeb(CTX_DB)).toEqual([]);
    expect(usesIn("cli/x.ts", "ctx.db.delete(users).run();\nprint(ctx.dbPath);", CTX_DB)).toEqual(["cli/x.ts:1: ctx.db.delete(users).run();"]);
  });

  test("cli/ and web/ never touch the SQLite handle ($client)", () => {
    expect(usesInCliAndWeb(SQLITE_HANDLE)).toEqual([]);
    expect(usesIn("cli/x.ts", 'writeBackup(db.$client, dir, out, now);', SQLITE_HANDLE)).toEqual(["cli/x.ts:1: writeBackup(db.$client, dir, out, now);"]);
  });
});

/** The feature folder a path is in (web/features/<name>/...), or null. */
const featureOf = (path: string) => /^web\/features\/([^/]+)\//.exec(path)?.[1] ?? null;
const isFeatureIndex = (path: string) => /^web\/features\/[^/]+\/index\.ts$/.test(path);

/** A public page's own script (web/public/<page>.tsx) importing its one screen (a page at the top of a feature): an
 * index.ts would bring the feature's other screens into the page's bundle (esbuild splits by what a file can reach). */
const isPublicPageScreen = (i: Import) => /^web\/public\/[^/]+\.tsx$/.test(i.file) && /^web\/features\/[^/]+\/[^/]+\.tsx$/.test(i.target);
/** An import of a feature's internals from outside that feature (its index.ts is its public face). */
const reachesIntoFeature = (i: Import) =>
  featureOf(i.target) !== null && featureOf(i.target) !== featureOf(i.file) && !isFeatureIndex(i.target) && !isPublicPageScreen(i);
/** A feature's import of web/ code that is neither a feature's nor shared (the composition root: app.tsx, main.tsx). */
const featureImportsUnshared = (i: Import) =>
  featureOf(i.file) !== null && under(i.target, "web") && !under(i.target, "web/shared") && featureOf(i.target) === null;
/** Shared code that depends on a feature. */
const sharedImportsFeature = (i: Import) => under(i.file, "web/shared") && under(i.target, "web/features");

describe("import rules: web/ by feature", () => {
  test("a feature is reached from outside only through its index.ts", () => {
    expect(ALL.filter(reachesIntoFeature).map(describeImport)).toEqual([]);
    expect(reachesIntoFeature(importOf("web/features/home/Home.tsx", "../customers/components/SimulateReply.tsx"))).toBe(true);
    expect(reachesIntoFeature(importOf("web/app.tsx", "./features/broadcast/BroadcastPage.tsx"))).toBe(true);
    expect(reachesIntoFeature(importOf("web/features/home/Home.tsx", "../customers/index.ts"))).toBe(false);
    expect(reachesIntoFeature(importOf("web/public/terms.tsx", "../features/info/Terms.tsx"))).toBe(false);
    expect(reachesIntoFeature(importOf("web/public/terms.tsx", "../features/info/components/LegalDocument.tsx"))).toBe(true);
    expect(reachesIntoFeature(importOf("web/features/customers/CustomersList.tsx", "./components/TextBudgetLine.tsx"))).toBe(false);
  });

  test("a feature imports from web/ only its own folder, web/shared/ and other features' index.ts", () => {
    expect(ALL.filter(featureImportsUnshared).map(describeImport)).toEqual([]);
    expect(featureImportsUnshared(importOf("web/features/settings/SettingsPage.tsx", "../../app.tsx"))).toBe(true);
    expect(featureImportsUnshared(importOf("web/features/settings/SettingsPage.tsx", "../../shared/api/client.ts"))).toBe(false);
  });

  test("web/shared/ imports no feature", () => {
    expect(ALL.filter(sharedImportsFeature).map(describeImport)).toEqual([]);
    expect(sharedImportsFeature(importOf("web/shared/components/NavBar.tsx", "../../features/users/index.ts"))).toBe(true);
    expect(sharedImportsFeature(importOf("web/shared/components/NavBar.tsx", "../paths.ts"))).toBe(false);
  });
});
