import { useCallback, useEffect, useState } from "react";
import { ApiError } from "../api/client.ts";

/** One thing a screen reads by id (a broadcast's results, a business's dashboard) as it loads. */
export type Loaded<T> = { kind: "loading" } | { kind: "failed"; message: string; status: number } | { kind: "ready"; value: T };

/**
 * Reads `load(key)` when `key` changes (and on retry()); an answer that comes after the key changed or the screen
 * left is dropped. A failure keeps the server's sentence (404's "Broadcast not found"), else `failedText`.
 */
export function useLoad<T>(key: string, load: (key: string) => Promise<T>, failedText: string): { state: Loaded<T>; retry: () => void } {
  const [state, setState] = useState<Loaded<T>>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ kind: "loading" });
    load(key).then(
      (value) => live && setState({ kind: "ready", value }),
      (err: unknown) => {
        if (!live) return;
        console.error(failedText, err);
        const status = err instanceof ApiError ? err.status : 0;
        setState({ kind: "failed", status, message: (err instanceof ApiError && status >= 400 && status < 500 && err.message) || failedText });
      },
    );
    return () => {
      live = false;
    };
    // `load` is a module's wrapper (stable); only the key decides what is read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  return { state, retry };
}
