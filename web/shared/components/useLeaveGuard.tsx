import { type ReactNode, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { ConfirmDialog } from "./ConfirmDialog.tsx";

export const LEAVE_TITLE = "Leave without saving?";
export const LEAVE_TEXT = "Your changes on this page are not saved yet. If you leave now, they are lost.";

/** The in-app link a click would follow, or null (another site, a new tab, a download, a modified click). */
function followedLink(e: MouseEvent): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const link = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
  if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return null;
  const url = new URL(link.getAttribute("href") ?? "", window.location.href);
  // Another site is a page unload: beforeunload asks for that one.
  if (url.origin !== window.location.origin) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * While `dirty`, leaving the screen asks first: a tap on any in-app link (the nav bar, Cancel, Back) opens the app's
 * own dialog (Stay / Leave), and closing or reloading the tab gets the browser's `beforeunload` question. Returns the
 * dialog to render. The click is caught on the way down (capture), before the router's own link handler sees it.
 */
export function useLeaveGuard(dirty: boolean): ReactNode {
  const [here, navigate] = useLocation();
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers ask only when returnValue is set.
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      const to = followedLink(e);
      if (to === null || to === here) return;
      e.preventDefault();
      e.stopPropagation();
      setPending(to);
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty, here]);

  if (pending === null) return null;
  return (
    <ConfirmDialog
      title={LEAVE_TITLE}
      confirmLabel="Leave"
      cancelLabel="Stay"
      danger
      onCancel={() => setPending(null)}
      onConfirm={() => {
        setPending(null);
        navigate(pending);
      }}
    >
      <p>{LEAVE_TEXT}</p>
    </ConfirmDialog>
  );
}
