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

/**
 * Deleting a row of a list screen: asks `question` first, marks the row while it goes, reloads the list after, and
 * hands a failure to `failed`. With `oneAtATime`, a second delete waits for the first (its buttons are disabled).
 */
export function useRowDelete(
  remove: (id: number) => Promise<unknown>,
  reload: () => Promise<void>,
  failed: (err: unknown) => void,
  { oneAtATime = false, onStart }: { oneAtATime?: boolean; onStart?: () => void } = {},
) {
  const [deleting, setDeleting] = useState<number | null>(null);
  async function deleteRow(id: number, question: string) {
    if (oneAtATime && deleting !== null) return;
    if (!window.confirm(question)) return;
    onStart?.();
    setDeleting(id);
    try {
      await remove(id);
      await reload();
    } catch (err) {
      failed(err);
    } finally {
      setDeleting(null);
    }
  }
  return { deleting, deleteRow };
}
