import { useCallback, useEffect, useState } from "react";

/**
 * A list screen's data: loaded on mount and again on reload(). Spec section 8: a failed load is logged only and the
 * spinner stops. The list stays on screen during a reload (no spinner flash, no layout jump).
 */
export function useList<T>(fetchList: () => Promise<T[]>, what: string) {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const reload = useCallback(async () => {
    try {
      setItems(await fetchList());
    } catch (err) {
      console.error(`Error loading ${what}:`, err);
    } finally {
      setLoading(false);
    }
  }, [fetchList, what]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { items, loading, reload };
}
