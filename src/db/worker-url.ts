/** The URL a Worker is started from: in the executable, entry points live under /$bunfs/root by their path from the
 * project root (scripts/build.ts WORKER_ENTRIES); from source, next to this folder's files. `file` is one of them. */
export function dbWorkerUrl(file: string): string {
  return import.meta.url.includes("/$bunfs/") ? `./src/db/${file}` : new URL(`./${file}`, import.meta.url).href;
}
