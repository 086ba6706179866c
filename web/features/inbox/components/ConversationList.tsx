import { Link } from "wouter";
import type { ConversationRow } from "../../../../src/schemas/inbox.ts";
import { formatDateTime, formatShortWhen } from "../../../shared/format.ts";
import { paths } from "../../../shared/paths.ts";
import type { ConversationKey } from "../api.ts";
import { ConversationStateBadge } from "./ConversationStateBadge.tsx";

export const MEDIA_ONLY = "(picture)";

const same = (row: ConversationRow, open: ConversationKey | null) => open?.customerId === row.customerId && open.businessId === row.businessId;

/** The conversations, as the server orders them (unread first, then the newest); an unread one is bold with its count. */
export function ConversationList({ rows, open }: { rows: ConversationRow[]; open: ConversationKey | null }) {
  return (
    <ul className="inbox-list" aria-label="Conversations">
      {rows.map((row) => {
        const unread = row.unread > 0;
        const current = same(row, open);
        return (
          <li key={`${row.customerId}-${row.businessId}`}>
            <Link
              href={paths.inbox(row)}
              className={`inbox-row${unread ? " is-unread" : ""}${current ? " is-open" : ""}`}
              aria-current={current ? "true" : undefined}
            >
              <span className="inbox-row-top">
                <span className="inbox-row-phone">{row.phone}</span>
                {unread && (
                  <span className="inbox-row-count" aria-label={`${row.unread} unread`}>
                    {row.unread}
                  </span>
                )}
                <time className="inbox-row-time" dateTime={row.lastMessageAt} title={formatDateTime(row.lastMessageAt)}>
                  {formatShortWhen(row.lastMessageAt)}
                </time>
              </span>
              <span className="inbox-row-business">
                {row.businessName}
                <span className={`badge ${row.channel === "WhatsApp" ? "badge-whatsapp" : "badge-info"}`}>{row.channel}</span>
                <ConversationStateBadge row={row} />
              </span>
              <span className="inbox-row-preview">{row.lastMessagePreview || MEDIA_ONLY}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
