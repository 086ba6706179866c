// An entry point of its own in the executable, loaded at the first poster: src/lib/import-separately.ts says why.
export { default } from "pdfkit";
