// The WAL checkpointer's thread (src/db/checkpointer.ts): its own connection to the database file, a PASSIVE
// checkpoint every `everyMs`. A passive checkpoint never blocks the server's connection: it copies what no reader
// still needs into the database file (and syncs it), and the next write starts the WAL over once all of it is copied.
import { Database } from "bun:sqlite";

declare const self: Worker;

export interface CheckpointerStart {
  path: string;
  everyMs: number;
}

/** What the thread reports: after opening, after each checkpoint that copied frames, and on stop or failure. */
export type CheckpointerReport =
  | { kind: "ready" }
  | { kind: "checkpointed"; walFrames: number; copied: number }
  | { kind: "failed"; message: string }
  | { kind: "stopped" };

let db: Database | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
const report = (r: CheckpointerReport) => postMessage(r);

function checkpoint(): void {
  if (!db) return;
  try {
    const row = db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { busy: number; log: number; checkpointed: number } | null;
    if (row && row.checkpointed > 0) report({ kind: "checkpointed", walFrames: row.log, copied: row.checkpointed });
  } catch (err) {
    // A locked database (SQLITE_BUSY) is tried again at the next tick; anything else ends the thread.
    const message = err instanceof Error ? err.message : String(err);
    if (/busy|locked/i.test(message)) return;
    stop();
    report({ kind: "failed", message });
  }
}

function stop(): void {
  if (timer) clearInterval(timer);
  timer = null;
  db?.close();
  db = null;
}

self.onmessage = (event: MessageEvent<CheckpointerStart | "stop">) => {
  if (event.data === "stop") {
    checkpoint();
    stop();
    report({ kind: "stopped" });
    return;
  }
  try {
    db = new Database(event.data.path, { strict: true });
    db.exec("PRAGMA busy_timeout = 1000");
    db.exec("PRAGMA synchronous = NORMAL");
    // This connection never checkpoints by itself when it closes: the server's connection may still be writing.
    db.exec("PRAGMA wal_autocheckpoint = 0");
    timer = setInterval(checkpoint, event.data.everyMs);
    report({ kind: "ready" });
  } catch (err) {
    stop();
    report({ kind: "failed", message: err instanceof Error ? err.message : String(err) });
  }
};
