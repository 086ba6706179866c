import type { ReactNode } from "react";
import type { ListLoadFailure } from "./useList.ts";

/** A list that could not be read says so, with a way to try again (never the empty notice over an error). */
export function ListLoadFailed({ failure }: { failure: ListLoadFailure }) {
  return (
    <div className="card empty-state list-load-failed" role="alert">
      <p>Could not load {failure.what}.</p>
      <button type="button" className="btn btn-secondary" onClick={failure.retry}>
        Retry
      </button>
    </div>
  );
}

/**
 * A list screen's frame: its title and subtitle, the add button beside them, then the list, or, when the list could
 * not be read (`failure`), that notice and Retry in its place.
 */
export function ListPage({
  className,
  headerClassName = "",
  title,
  subtitle,
  action,
  failure = null,
  children,
}: {
  /** The page's own class, after "container page". */
  className: string;
  headerClassName?: string;
  title: string;
  subtitle: string;
  action: ReactNode;
  failure?: ListLoadFailure | null;
  children: ReactNode;
}) {
  return (
    <section className={`container page ${className}`}>
      <header className={`page-header${headerClassName ? ` ${headerClassName}` : ""}`}>
        <div>
          <h1>{title}</h1>
          <p className="page-subtitle">{subtitle}</p>
        </div>
        {action}
      </header>
      {failure ? <ListLoadFailed failure={failure} /> : children}
    </section>
  );
}

/** A row's Delete button: "Deleting..." and aria-busy while its row goes. */
export function DeleteButton({ label, busy, disabled, onClick, icon }: { label: string; busy: boolean; disabled: boolean; onClick: () => void; icon?: ReactNode }) {
  return (
    <button type="button" className="btn btn-danger btn-sm" aria-label={label} disabled={disabled} aria-busy={busy} onClick={onClick}>
      {icon}
      {icon && " "}
      {busy ? "Deleting..." : "Delete"}
    </button>
  );
}
