import { useCallback, useEffect, useState } from "react";

/** A list that could not be read: what it holds ("customers") and how to read it again. */
export interface ListLoadFailure {
  what: string;
  retry: () => void;
}

/**
 * A list screen's data: loaded on mount and again on reload(). Spec section 8: a failed load is logged and the
 * spinner stops; `failure` is then set, so the screen says the list could not be read instead of calling it empty.
 * The list stays on screen during a reload (no spinner flash, no layout jump).
 */
export function useList<T>(fetchList: () => Promise<T[]>, what: string) {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(async () => {
    try {
      setItems(await fetchList());
      setFailed(false);
    } catch (err) {
      console.error(`Error loading ${what}:`, err);
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [fetchList, what]);
  useEffect(() => {
    void reload();
  }, [reload]);
  // Retry shows the spinner again: there is no list on screen to keep.
  const retry = useCallback(() => {
    setFailed(false);
    setLoading(true);
    void reload();
  }, [reload]);
  const failure: ListLoadFailure | null = failed && !loading ? { what, retry } : null;
  return { items, loading, reload, failure };
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
    await removeRow(id);
  }
  /** Deletes without asking: for a screen that asked in its own dialog. */
  async function removeRow(id: number) {
    if (oneAtATime && deleting !== null) return;
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
  return { deleting, deleteRow, removeRow };
}
