import type * as esbuild from "esbuild";

/** What every browser bundle is built with (scripts/build.ts, scripts/build-public-pages.ts): minified, for the
 * browsers we serve, with a metafile to find the files it wrote. */
export const WEB_BUNDLE = {
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020", "safari15"],
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
} as const satisfies esbuild.BuildOptions;
