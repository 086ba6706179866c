import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, type RefObject, useCallback, useEffect, useRef } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: a backdrop (a mouse-down on it, not inside, closes) around a role=dialog, aria-modal box
 * labelled by `labelledBy` (and described by `describedBy`). While open, focus moves to `initialFocus`
 * and returns to where it was on close, Tab stays inside, Escape closes and the page behind does not scroll.
 */
export function Dialog({
  className,
  labelledBy,
  describedBy,
  initialFocus,
  onClose,
  backdropTestId,
  children,
}: {
  /** Added after "modal" on the dialog box. */
  className: string;
  labelledBy: string;
  describedBy?: string;
  initialFocus: RefObject<HTMLElement | null>;
  onClose: () => void;
  backdropTestId?: string;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // Focus moves into the dialog and returns to where it was; Escape closes; the page behind does not scroll.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    initialFocus.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        onCloseRef.current();
      }
    };
    document.addEventListener("keydown", onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
      if (previous && typeof previous.focus === "function" && document.contains(previous)) previous.focus();
    };
    // Once per opening: the element to focus is read when the dialog mounts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Tab wraps inside the dialog: the page behind is covered, so the keyboard must not reach it either.
  const trapTab = useCallback((e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "Tab" || !dialogRef.current) return;
    const items = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }, []);

  return (
    <div
      className="modal-backdrop"
      data-testid={backdropTestId}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className={`modal ${className}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        onKeyDown={trapTab}
      >
        {children}
      </div>
    </div>
  );
}
