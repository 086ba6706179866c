// Following a short link (issue 25): what a code leads to, and the click recorded. Raw SQL on prepared statements:
// GET /l/<code> runs both on every click of a burst after a big broadcast (bench/redirect.ts).
import type { Db } from "../../db/client.ts";
import { statements } from "./statements.ts";

/** What a short link points at. */
export interface ShortLinkTarget {
  url: string;
  broadcastId: number;
  deliveryId: number;
}

/** One click to record: the code, what it leads to, when (ms). */
export interface ShortLinkClick {
  code: string;
  target: ShortLinkTarget;
  at: number;
}

const q = statements((sqlite) => ({
  target: sqlite.prepare<ShortLinkTarget, [string]>(
    `SELECT l.url AS url, s.broadcast_id AS broadcastId, s.delivery_id AS deliveryId
     FROM short_links s JOIN broadcast_links l ON l.id = s.link_id WHERE s.code = ?1`,
  ),
  click: sqlite.prepare<unknown, [string, number, number, number]>(
    `INSERT INTO link_clicks (code, broadcast_id, delivery_id, clicked_at) VALUES (?1, ?2, ?3, ?4)`,
  ),
}));

export function shortLinksRepo(db: Db) {
  return {
    /** Where a code leads, or null for a code nobody was sent. */
    target(code: string): ShortLinkTarget | null {
      return q(db).target.get(code);
    },
    /** People followed these links (call inside one transaction to write them in one commit). */
    recordClicks(clicks: ShortLinkClick[]): void {
      const { click } = q(db);
      for (const c of clicks) click.run(c.code, c.target.broadcastId, c.target.deliveryId, c.at);
    },
  };
}

export type ShortLinksRepo = ReturnType<typeof shortLinksRepo>;
