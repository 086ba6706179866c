import pkg from "../package.json" with { type: "json" };

// Replaced by scripts/build.ts (bun build --define) with the commit the executable was built from.
declare const NEARCAST_COMMIT: string;

/** The git commit of this build: "dev" when run from source. */
export const COMMIT: string = typeof NEARCAST_COMMIT === "string" ? NEARCAST_COMMIT : "dev";

/** What --version, /api/health and the startup line show: package.json's version and the commit, e.g. "0.2.0+1a2b3c4". */
export const VERSION = `${pkg.version}+${COMMIT}`;
