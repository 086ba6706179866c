import type { ConversationRow } from "../../../../src/schemas/inbox.ts";

/** "Opted out by their reply", "Opted out" or "Not subscribed"; nothing for a subscribed person. */
export function ConversationStateBadge({ row }: { row: ConversationRow }) {
  if (row.state === "subscribed") return null;
  return <span className={`badge ${row.state === "notSubscribed" ? "badge-muted" : "badge-danger"} inbox-state`}>{row.stateText}</span>;
}
