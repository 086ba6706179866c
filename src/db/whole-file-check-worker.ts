// The thread of the whole-file check (src/db/whole-file-check.ts): quick_check of every page on a connection of its
// own, so the server's thread keeps answering while SQLite reads a big file; one answer, then the thread ends.
import { type DatabaseState, databaseState } from "./integrity.ts";

declare const self: Worker;

export interface WholeFileCheckStart {
  path: string;
  busyWaitMs: number;
}

self.onmessage = (event: MessageEvent<WholeFileCheckStart>) => {
  const { path, busyWaitMs } = event.data;
  postMessage(databaseState(path, "quick_check", busyWaitMs) satisfies DatabaseState);
};
