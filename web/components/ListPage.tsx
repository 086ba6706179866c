import type { ReactNode } from "react";

/** A list screen's frame: its title and subtitle, the add button beside them, then the list. */
export function ListPage({
  className,
  headerClassName = "",
  title,
  subtitle,
  action,
  children,
}: {
  /** The page's own class, after "container page". */
  className: string;
  headerClassName?: string;
  title: string;
  subtitle: string;
  action: ReactNode;
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
      {children}
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
