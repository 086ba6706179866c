import { useEffect, useRef, useState } from "react";
import { retryErrorToast } from "../api/broadcast-errors.ts";
import { type BroadcastSummary, broadcastApi } from "../api/broadcasts.ts";
import { notify } from "../../../shared/state/toasts.ts";
import { LoadMore } from "../../../shared/components/LoadMore.tsx";
import { Spinner } from "../../../shared/components/Spinner.tsx";
import { HistoryRow, isUnfinished } from "./HistoryRow.tsx";
import { ScheduledBroadcastRow } from "./ScheduledBroadcastRow.tsx";

/** How often the history is read again while a broadcast is still sending. */
export const HISTORY_POLL_MS = 2000;
/** Consecutive failed reads after which polling gives up (until the next refresh). */
const MAX_POLL_FAILURES = 3;

export const RETRY_STARTED = "Retry Started";
export const NOTHING_TO_RETRY = "Nothing to retry";
const NOTHING_TO_RETRY_TEXT = "No failed messages can be retried.";

/** Sent but not yet reported delivered or failed: the carrier's reports usually follow within seconds. */
const awaitingReports = (b: BroadcastSummary) => b.sent > 0;
/** Reports that never come (a carrier that does not send them) must not keep the page polling: about a minute. */
export const MAX_IDLE_REPORT_POLLS = 30;

/** Newest first, as the server pages them: by creation time, then id. */
function newestFirst(a: BroadcastSummary, b: BroadcastSummary): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id - a.id;
}

/** The rows shown, with fresh rows laid over them: theirs replace the shown ones, the rest stay (older pages). */
export function mergeFirstPage(shown: BroadcastSummary[], fresh: BroadcastSummary[]): BroadcastSummary[] {
  const byId = new Map(shown.map((b) => [b.id, b]));
  for (const b of fresh) byId.set(b.id, b);
  return [...byId.values()].sort(newestFirst);
}

export const MORE_BROADCASTS_FAILED = "Could not load more broadcasts.";
const BROADCAST_NOUNS = ["broadcast", "broadcasts"] as const;

/**
 * The business's broadcasts, newest first, with their delivery counts, a page at a time (Load more for older ones).
 * While any is still sending (queued > 0) the first page is read again every 2 s (a sending broadcast is among the
 * newest); after that, while sent messages await their delivery reports, until the counts stop changing for about
 * a minute. Polling stops when all are finished and when the screen is left. `refreshKey` changes (a broadcast was
 * just sent) read it again at once.
 */
export function BroadcastHistory({ businessId, refreshKey = 0 }: { businessId: string; refreshKey?: number }) {
  const [items, setItems] = useState<BroadcastSummary[] | null>(null);
  const [total, setTotal] = useState(0);
  const [reload, setReload] = useState(0);
  const [retrying, setRetrying] = useState<number | null>(null);
  const latest = useRef<BroadcastSummary[] | null>(null);
  // Where "Load more" goes on: the first page's cursor until an older page is loaded, then that page's.
  const [moreCursor, setMoreCursor] = useState<string | null>(null);
  const olderLoaded = useRef(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);

  const show = (list: BroadcastSummary[]) => {
    latest.current = list;
    setItems(list);
  };

  useEffect(() => {
    // Another business: start over.
    latest.current = null;
    olderLoaded.current = false;
    setItems(null);
  }, [businessId]);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let idle = 0;
    let previous = "";
    async function tick() {
      timer = undefined;
      try {
        const page = await broadcastApi.historyPage(businessId, null);
        // An older broadcast still sending (a retry of its failures) is not on the first page: read it by itself.
        const onFirst = new Set(page.items.map((b) => b.id));
        const older = (latest.current ?? []).filter((b) => isUnfinished(b) && !onFirst.has(b.id));
        const refreshed = await Promise.all(older.map((b) => broadcastApi.status(b.id)));
        if (cancelled) return;
        failures = 0;
        const list = mergeFirstPage(latest.current ?? [], [...page.items, ...refreshed]);
        show(list);
        setTotal(page.total);
        if (!olderLoaded.current) setMoreCursor(page.nextCursor);
        const snapshot = JSON.stringify(page.items);
        idle = snapshot === previous ? idle + 1 : 0;
        previous = snapshot;
        const waiting = list.some(awaitingReports) && idle < MAX_IDLE_REPORT_POLLS;
        if (list.some(isUnfinished) || waiting) timer = setTimeout(tick, HISTORY_POLL_MS);
      } catch (err) {
        if (cancelled) return;
        // Spec section 8: list loads are logged only.
        console.error("Error loading broadcasts:", err);
        setItems((old) => old ?? []);
        failures++;
        // A blip while something is still sending: try a few more times, then stop.
        if (failures < MAX_POLL_FAILURES && latest.current?.some(isUnfinished)) timer = setTimeout(tick, HISTORY_POLL_MS);
      }
    }
    void tick();
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [businessId, refreshKey, reload]);

  async function loadMore() {
    if (!moreCursor || loadingMore) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await broadcastApi.historyPage(businessId, moreCursor);
      olderLoaded.current = true;
      show(mergeFirstPage(latest.current ?? [], page.items));
      setTotal(page.total);
      setMoreCursor(page.nextCursor);
    } catch (err) {
      console.error("Error loading more broadcasts:", err);
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  }
  const more = { items: items ?? [], total, hasMore: moreCursor !== null, loadingMore, moreFailed, loadMore };

  async function onRetry(b: BroadcastSummary) {
    if (retrying !== null) return;
    setRetrying(b.id);
    try {
      const res = await broadcastApi.retryFailed(b.id);
      const n = typeof res?.requeued === "number" ? res.requeued : b.failed;
      // Every failure may be final (opted out, invalid number): nothing went back to the queue, so nothing started.
      if (n === 0) notify.info(NOTHING_TO_RETRY, res?.message || NOTHING_TO_RETRY_TEXT);
      else notify.success(RETRY_STARTED, res?.message || `${n} failed message${n === 1 ? "" : "s"} queued again.`);
      // The row may be on an older page, which the polling reads only while it is sending: show it sending now.
      if (n > 0) await broadcastApi.status(b.id).then((fresh) => show(mergeFirstPage(latest.current ?? [], [fresh])), () => {});
      setReload((k) => k + 1);
    } catch (err) {
      const t = retryErrorToast(err);
      notify.error(t.title, t.message);
    } finally {
      setRetrying(null);
    }
  }

  const live = items?.some(isUnfinished) ?? false;

  return (
    <section className="card bc-history" aria-labelledby="bc-history-title">
      <header className="bc-history-header">
        <h2 id="bc-history-title" className="bc-section-title">
          Broadcast History
        </h2>
        {live && (
          <span className="bc-live" role="status">
            <span className="bc-live-dot" aria-hidden="true" />
            Updating live
          </span>
        )}
      </header>
      {items === null ? (
        <Spinner label="Loading broadcast history..." />
      ) : items.length === 0 ? (
        <p className="bc-history-empty">No broadcasts yet. Messages you send appear here with their delivery progress.</p>
      ) : (
        <ul className="bc-history-list">
          {items.map((b) =>
            // Scheduled (not started yet) or cancelled before it started: when it goes, Edit / Cancel; no counts (it
            // has no deliveries). One stopped while sending has its counts.
            b.state === "scheduled" || (b.state === "cancelled" && b.startedAt === null) ? (
              <ScheduledBroadcastRow key={b.id} b={b} onChanged={() => setReload((k) => k + 1)} />
            ) : (
              <HistoryRow key={b.id} b={b} retrying={retrying === b.id} onRetry={() => void onRetry(b)} onChanged={() => setReload((k) => k + 1)} />
            ),
          )}
        </ul>
      )}
      {items !== null && items.length > 0 && <LoadMore list={more} noun={BROADCAST_NOUNS} failedText={MORE_BROADCASTS_FAILED} />}
    </section>
  );
}
