import { useCallback, useEffect, useRef, useState } from "react";
import type { ListLoadFailure } from "./useList.ts";

/** One page of a server-paged list (e.g. ListCustomers). */
export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
  /** More than `total` match: the server stopped counting there. */
  totalCapped?: boolean;
}

/**
 * A list the server pages: the first page for `filters` at once (again whenever they change), more with loadMore().
 * A failed first page sets `failure` (Retry reads it again); a failed "load more" keeps the rows and says so in
 * `moreFailed`. Answers that arrive after the filters changed are dropped, so a slow page cannot overwrite a newer one.
 */
export function usePagedList<T, F>(fetchPage: (filters: F, cursor: string | null) => Promise<Paged<T>>, filters: F, what: string) {
  const [items, setItems] = useState<T[]>([]);
  const [total, setTotal] = useState({ n: 0, capped: false });
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [failed, setFailed] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  const generation = useRef(0);
  const key = JSON.stringify(filters);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const page = await fetchPage(JSON.parse(key) as F, null);
      if (mine !== generation.current) return;
      setItems(page.items);
      setTotal({ n: page.total, capped: page.totalCapped === true });
      setNextCursor(page.nextCursor);
      setFailed(false);
      setMoreFailed(false);
    } catch (err) {
      if (mine !== generation.current) return;
      console.error(`Error loading ${what}:`, err);
      setFailed(true);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [fetchPage, key, what]);

  useEffect(() => {
    void reload();
  }, [reload]);

  async function loadMore() {
    if (!nextCursor || loadingMore) return;
    const mine = generation.current;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await fetchPage(JSON.parse(key) as F, nextCursor);
      if (mine !== generation.current) return;
      setItems((rows) => [...rows, ...page.items]);
      setTotal({ n: page.total, capped: page.totalCapped === true });
      setNextCursor(page.nextCursor);
    } catch (err) {
      console.error(`Error loading more ${what}:`, err);
      if (mine === generation.current) setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  }

  const retry = useCallback(() => {
    setFailed(false);
    setLoading(true);
    void reload();
  }, [reload]);
  const failure: ListLoadFailure | null = failed && !loading ? { what, retry } : null;
  return { items, total: total.n, totalCapped: total.capped, hasMore: nextCursor !== null, loading, loadingMore, moreFailed, loadMore, reload, failure };
}
