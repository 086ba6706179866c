// The packages only one rare path needs (pdfkit for a poster, qrcode for a QR code, nodemailer for an email) are
// entry points of their own in the executable (src/separate/, scripts/build.ts SEPARATE_ENTRIES), not part of the
// main bundle: the executable reads its main bundle's bytecode whole at every start, code imported lazily included,
// and these three were 2.6 MB of its 4.1 MB of source (every process, serve and each CLI command: ~7 ms of start and
// ~11 MB of RSS; bench/README.md, issue 26 items 2 and 6, session 13). From source (tests), the same files are imported.

interface SeparateEntries {
  pdfkit: typeof import("../separate/pdfkit.ts");
  qrcode: typeof import("../separate/qrcode.ts");
  nodemailer: typeof import("../separate/nodemailer.ts");
}

/** The module of one of src/separate/'s files: the embedded entry in the executable, the source file otherwise. */
export function importSeparately<K extends keyof SeparateEntries>(name: K): Promise<SeparateEntries[K]> {
  // In the executable every module of the main bundle has the executable's URL (/$bunfs/root/<name>), and each entry
  // point sits at its path from the project root, compiled to .js.
  const url = import.meta.url.includes("/$bunfs/") ? `./src/separate/${name}.js` : new URL(`../separate/${name}.ts`, import.meta.url).href;
  return import(url);
}
