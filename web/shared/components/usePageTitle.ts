import { useEffect } from "react";

/**
 * Sets the browser tab's text while the screen is shown (history, bookmarks and tabs then tell the pages apart), and
 * the page's meta description (what a search result or a shared link shows of the page) when given one.
 */
export function usePageTitle(title: string, description?: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    if (description === undefined) return;
    document.querySelector('meta[name="description"]')?.setAttribute("content", description);
  }, [description]);
}
