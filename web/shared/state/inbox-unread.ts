import { signal } from "@preact/signals-react";
import { useEffect } from "react";
import { inboxUnreadApi } from "../api/inbox-unread.ts";

/** Conversations with replies the owner has not read (the nav's Inbox badge); 0 until read. */
export const unreadConversations = signal(0);

/** Gently: a badge a little late is fine; a server asked every second by every open tab is not. */
export const UNREAD_POLL_MS = 30_000;

/** Reads the count again (after opening a conversation, which reads it). A failure keeps the last count. */
export async function refreshUnread(): Promise<void> {
  try {
    unreadConversations.value = (await inboxUnreadApi.count()).unread ?? 0;
  } catch (err) {
    console.error("Error loading the unread count:", err);
  }
}

/** While `signedIn`: the count now, every UNREAD_POLL_MS, and whenever the window gets focus back. */
export function useUnreadPolling(signedIn: boolean): void {
  useEffect(() => {
    if (!signedIn) {
      unreadConversations.value = 0;
      return;
    }
    void refreshUnread();
    const timer = setInterval(() => void refreshUnread(), UNREAD_POLL_MS);
    const onFocus = () => void refreshUnread();
    window.addEventListener("focus", onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener("focus", onFocus);
    };
  }, [signedIn]);
}
