// quick_check of every page of the database file, on a thread of its own (whole-file-check-worker.ts): `serve` runs it
// once the server answers, since on a big file it takes seconds (its start only takes a quick look: integrity.ts).
import type { DatabaseState } from "./integrity.ts";
import type { WholeFileCheckStart } from "./whole-file-check-worker.ts";
import { dbWorkerUrl } from "./worker-url.ts";

/** How long the check waits for a writer to let go before it calls the file busy (it is then tried again later). */
const BUSY_WAIT_MS = 5000;

/** What quick_check finds in the file at `path`. Rejects when the thread fails: nothing was learnt about the file. */
export function checkWholeFile(path: string): Promise<DatabaseState> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(dbWorkerUrl("whole-file-check-worker.ts"));
    (worker as Worker & { unref?(): void }).unref?.();
    worker.onmessage = (event: MessageEvent<DatabaseState>) => {
      resolve(event.data);
      worker.terminate();
    };
    worker.onerror = (event) => {
      reject(new Error(event.message || "the check's thread failed"));
      worker.terminate();
    };
    worker.postMessage({ path, busyWaitMs: BUSY_WAIT_MS } satisfies WholeFileCheckStart);
  });
}
