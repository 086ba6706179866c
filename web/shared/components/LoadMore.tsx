import { useEffect, useRef } from "react";

export const LOAD_MORE = "Load more";

/** What a list holds, in the singular and the plural. */
export type Nouns = readonly [one: string, many: string];

/** "Showing 50 of 50,000 customers"; "Showing 50 of 10,000+ customers" when the count stopped at 10,000. */
export function showingText(shown: number, total: number, [one, many]: Nouns, capped = false): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return `Showing ${n(shown)} of ${n(total)}${capped ? "+" : ""} ${total === 1 && !capped ? one : many}`;
}

/** The part of usePagedList's answer the footer reads. */
interface MoreState {
  items: unknown[];
  total: number;
  totalCapped?: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  moreFailed: boolean;
  loadMore: () => Promise<void>;
}

/**
 * Under a paged list: how many are shown of how many, and "Load more" while there are more. Scrolling the button
 * into view loads the next page by itself (an IntersectionObserver; the button stays for keyboards and for browsers
 * without one), except after a failure, when only a click tries again.
 */
export function LoadMore({ list, noun, failedText, className = "" }: { list: MoreState; noun: Nouns; failedText: string; className?: string }) {
  const button = useRef<HTMLButtonElement>(null);
  const { hasMore, loadingMore, moreFailed, loadMore } = list;
  useEffect(() => {
    const el = button.current;
    if (!el || !hasMore || moreFailed || typeof IntersectionObserver === "undefined") return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore();
    }, { rootMargin: "200px" });
    seen.observe(el);
    return () => seen.disconnect();
  }, [hasMore, moreFailed, loadMore]);
  return (
    <div className={`list-more ${className}`.trim()}>
      <span className="muted" data-testid="showing">
        {showingText(list.items.length, list.total, noun, list.totalCapped)}
      </span>
      {moreFailed && (
        <span className="field-error" role="alert">
          {failedText}
        </span>
      )}
      {hasMore && (
        <button ref={button} type="button" className="btn btn-secondary" disabled={loadingMore} aria-busy={loadingMore} onClick={() => void loadMore()}>
          {loadingMore ? "Loading..." : moreFailed ? "Try again" : LOAD_MORE}
        </button>
      )}
    </div>
  );
}
