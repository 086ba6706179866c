// The background check of the whole database file (issue 26 item 2): `serve` starts answering after a quick look at
// the file (src/db/integrity.ts), then quick_check reads every page on the checkpointer's thread. A damaged page found
// then stops sending (the dispatcher stops: a message must not go out twice, or to someone who opted out, because
// the rows that say otherwise cannot be read), says so in the log, and puts a red line on the checklist (and the
// broadcast dispatcher's health reads "stopped") until the file is restored from a backup.
import type { Clock } from "../clock.ts";
import type { DatabaseState } from "../db/integrity.ts";
import type { Logger } from "../lib/logger.ts";
import type { ChecklistItem } from "../schemas/checklist.ts";

/** A busy file (another process writing for over 5 s) is checked again this much later. */
const BUSY_RETRY_MS = 60_000;

export interface DatabaseCheckRun {
  /** The file's path, for the log line and the fix. */
  path: string;
  dataDir: string;
  /** quick_check of every page (on the checkpointer's thread: src/db/checkpointer.ts). */
  check: () => Promise<DatabaseState>;
  /** Stops sending for good (this process). */
  stopSending: () => Promise<void>;
}

export function createDatabaseCheckService({ clock, logger }: { clock: Clock; logger: Logger }) {
  let damage: { detail: string; since: Date; fix: string } | null = null;

  async function run(r: DatabaseCheckRun): Promise<void> {
    let s: DatabaseState;
    try {
      s = await r.check();
    } catch (e) {
      logger.warn(`database check: could not run (${e instanceof Error ? e.message : String(e)}); it runs again at the next start`);
      return;
    }
    if (s.state === "busy") {
      setTimeout(() => void run(r), BUSY_RETRY_MS).unref?.();
      return;
    }
    if (s.state !== "damaged") return;
    const detail = s.detail.replace(/\s+/g, " ").slice(0, 300);
    damage = { detail, since: clock.now(), fix: `restore a backup with \`nearcast restore FILE --data-dir ${r.dataDir}\`` };
    logger.error(`database check: ${r.path} is damaged (quick_check: ${detail}); sending stopped: ${damage.fix}`);
    await r.stopSending();
  }

  return {
    /** Runs the check in the background; what it finds is logged and kept for the checklist. */
    start(r: DatabaseCheckRun): void {
      void run(r);
    },

    /** The checklist's red line while the database file is found damaged (none otherwise). */
    checklistItems(): ChecklistItem[] {
      if (!damage) return [];
      const at = damage.since.toISOString().slice(0, 16).replace("T", " ");
      return [
        {
          id: "database",
          status: "red",
          title: "Database damaged: sending stopped",
          detail: `Since ${at} UTC the check of every page finds the database file damaged (${damage.detail}). Nothing is sent until you ${damage.fix}, then start the server again.`,
        },
      ];
    },
  };
}

export type DatabaseCheckService = ReturnType<typeof createDatabaseCheckService>;
