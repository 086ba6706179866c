import type { ReactNode } from "react";
import { Spinner } from "./Spinner.tsx";
import type { Loaded } from "./useLoad.ts";

/** A screen that could not read its one thing says why; Retry when trying again may help (no answer, a 5xx), not after a 4xx. */
export function LoadFailed({ state, retry }: { state: Extract<Loaded<unknown>, { kind: "failed" }>; retry: () => void }) {
  const canRetry = state.status === 0 || state.status >= 500;
  return (
    <div className="card empty-state list-load-failed" role="alert">
      <p>{state.message}</p>
      {canRetry && (
        <button type="button" className="btn btn-secondary" onClick={retry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** What useLoad read, as the screen shows it: the spinner (`loading` its label), the failure, or `children(value)`. */
export function LoadedView<T>({ state, retry, loading, children }: { state: Loaded<T>; retry: () => void; loading: string; children: (value: T) => ReactNode }) {
  if (state.kind === "loading") return <Spinner label={loading} />;
  if (state.kind === "failed") return <LoadFailed state={state} retry={retry} />;
  return <>{children(state.value)}</>;
}
