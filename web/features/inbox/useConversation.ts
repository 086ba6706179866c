import { useCallback, useEffect, useRef, useState } from "react";
import type { Conversation, ConversationRow, ThreadItem } from "../../../src/schemas/inbox.ts";
import { ApiError } from "../../shared/api/client.ts";
import { refreshUnread } from "../../shared/state/inbox-unread.ts";
import { type ConversationKey, inboxApi } from "./api.ts";

/** How often a thread with a message still Queued is read again. */
export const PENDING_REFRESH_MS = 3000;

export type LoadedConversation = { kind: "loading" } | { kind: "failed"; retry: () => void } | { kind: "none" } | { kind: "ok"; data: Conversation };

/**
 * One conversation as the server has it: read once (which reads its replies: the nav's count is read again and
 * `onRead` hears the conversation as it now is), then again now and then while a message waits in the outbox.
 * "none" when the person never wrote to the business. `append` adds the owner's answer just sent.
 */
export function useConversation(which: ConversationKey, onRead?: (row: ConversationRow) => void) {
  const [state, setState] = useState<LoadedConversation>({ kind: "loading" });
  const onReadRef = useRef(onRead);
  onReadRef.current = onRead;
  const { customerId, businessId } = which;

  const load = useCallback(() => {
    let live = true;
    setState({ kind: "loading" });
    inboxApi.get({ customerId, businessId }).then(
      (data) => {
        if (!live) return;
        setState({ kind: "ok", data });
        onReadRef.current?.(data.conversation);
        void refreshUnread();
      },
      (err) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 404) return setState({ kind: "none" });
        console.error("Error loading the conversation:", err);
        setState({ kind: "failed", retry: load });
      },
    );
    return () => {
      live = false;
    };
  }, [customerId, businessId]);
  useEffect(load, [load]);

  // While something is waiting in the outbox, read the thread again now and then, so its status moves on screen.
  const queued = state.kind === "ok" && state.data.items.some((i) => i.status === "Queued");
  useEffect(() => {
    if (!queued) return;
    let live = true;
    const timer = setTimeout(() => {
      inboxApi.get({ customerId, businessId }).then(
        (data) => live && setState({ kind: "ok", data }),
        (err) => console.error("Error reading the conversation again:", err),
      );
    }, PENDING_REFRESH_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [queued, state, customerId, businessId]);

  const append = (item: ThreadItem) => setState((s) => (s.kind === "ok" ? { kind: "ok", data: { ...s.data, items: [...s.data.items, item] } } : s));
  return { state, append };
}
