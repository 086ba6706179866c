import { useEffect } from "react";

/** Sets the browser tab's text while the screen is shown (history, bookmarks and tabs then tell the pages apart). */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
