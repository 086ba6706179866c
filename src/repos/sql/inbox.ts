// The inbox (issue 24): stored replies (inbox_messages, their media in inbox_media) and the conversations they make
// (one customer with one business: the latest reply, the unread count). Raw SQL on prepared statements: every inbound
// webhook writes here (bench/inbound-replies.ts), and the list's state and 24-hour window are clearer in SQL.
import type { Db } from "../../db/client.ts";
import { underOptOutSql } from "../consent-events.ts";
import { statements } from "./statements.ts";

export type InboxChannel = "SMS" | "WhatsApp";

/** Unread conversations sort above every read one: their key is the time plus this (times stay below it until 2286). */
const UNREAD_BOOST = 10_000_000_000_000;
const SORT = `(CASE WHEN cv.unread > 0 THEN ${UNREAD_BOOST} ELSE 0 END + cv.last_message_at)`;

/** A conversation as read for the list: the raw columns its row is made from (src/services/inbox/view.ts). */
export interface ConversationRecord {
  id: number;
  customerId: number;
  businessId: number;
  businessName: string;
  ownerId: number;
  phone: string;
  lastChannel: InboxChannel;
  lastMessageAt: number;
  preview: string;
  unread: number;
  sortKey: number;
  /** The subscription's status and channel; null when there is none (never subscribed, or erased). */
  subStatus: string | null;
  subChannel: InboxChannel | null;
  /** 1 when the person is under an all-business STOP. */
  allOut: number;
  /** The source of the person's latest opt-out of this business (or all), e.g. sms-stop; null for none. */
  outSource: string | null;
  /** When the person last wrote on WhatsApp (ms); null when never. */
  whatsappAt: number | null;
}

/** One message of a thread, either way. */
export interface ThreadRecord {
  id: number;
  direction: "in" | "out";
  kind: string;
  body: string | null;
  channel: InboxChannel;
  status: string | null;
  errorCode: number | null;
  errorMessage: string | null;
  imagePath: string | null;
  at: number;
  /** Inbound only: the media ids, comma-separated (null for none). */
  media: string | null;
}

export interface StoredReply {
  messageSid: string | null;
  customerId: number | null;
  businessId: number | null;
  fromPhone: string;
  channel: InboxChannel;
  body: string;
  mediaCount: number;
  at: number;
}

const CONVERSATION_COLUMNS = `cv.id, cv.customer_id AS customerId, cv.business_id AS businessId, b.name AS businessName,
  b.owner_id AS ownerId, cu.phone, cv.channel AS lastChannel, cv.last_message_at AS lastMessageAt, cv.preview, cv.unread,
  ${SORT} AS sortKey, s.status AS subStatus, s.contact_preference AS subChannel,
  ${underOptOutSql("cv.customer_id")} AS allOut,
  (SELECT e.source FROM consent_events e WHERE e.customer_id = cv.customer_id AND e.kind = 'unsubscribed'
     AND (e.business_id = cv.business_id OR e.business_id IS NULL) ORDER BY e.id DESC LIMIT 1) AS outSource,
  (SELECT ci.last_inbound_at FROM customer_inbound ci WHERE ci.customer_id = cv.customer_id AND ci.channel = 'WhatsApp') AS whatsappAt
  FROM conversations cv JOIN businesses b ON b.id = cv.business_id JOIN customers cu ON cu.id = cv.customer_id
  LEFT JOIN subscriptions s ON s.customer_id = cv.customer_id AND s.business_id = cv.business_id`;

// ?1 owner (null: all), ?2 business (null: all).
const SCOPE = `(?1 IS NULL OR b.owner_id = ?1) AND (?2 IS NULL OR cv.business_id = ?2)`;

const q = statements((sqlite) => ({
  knownMedia: sqlite.prepare<{ fileName: string }, [string]>(
    `SELECT file_name AS fileName FROM inbox_media WHERE file_name IN (SELECT value FROM json_each(?1))`,
  ),
  // Every inbound text looks its sender up: prepared once (the query builder costs more than the query).
  customerByPhone: sqlite.prepare<{ id: number }, [string]>(`SELECT id FROM customers WHERE phone = ?1`),
  // Among the businesses the person follows or followed: the one that last sent them something, else the latest
  // subscription (the same order as businesses.helpContactFor, without its "active only").
  businessFor: sqlite.prepare<{ id: number }, [number]>(
    `SELECT s.business_id AS id FROM subscriptions s WHERE s.customer_id = ?1
     ORDER BY (SELECT max(d.sent_at) FROM deliveries d WHERE d.customer_id = ?1 AND d.business_id = s.business_id) IS NULL,
       (SELECT max(d.sent_at) FROM deliveries d WHERE d.customer_id = ?1 AND d.business_id = s.business_id) DESC,
       s.status IN ('active', 'unconfirmed') DESC, s.consent_at DESC, s.id DESC LIMIT 1`,
  ),
  insert: sqlite.prepare<{ id: number }, [string | null, number | null, number | null, string, string, string, number, number]>(
    `INSERT OR IGNORE INTO inbox_messages (message_sid, customer_id, business_id, from_phone, channel, body, media_count, received_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id`,
  ),
  bump: sqlite.prepare<unknown, [number, number, string, number, string]>(
    `INSERT INTO conversations (customer_id, business_id, channel, last_message_at, preview, unread) VALUES (?1, ?2, ?3, ?4, ?5, 1)
     ON CONFLICT (customer_id, business_id) DO UPDATE SET unread = unread + 1,
       channel = CASE WHEN excluded.last_message_at >= last_message_at THEN excluded.channel ELSE channel END,
       preview = CASE WHEN excluded.last_message_at >= last_message_at THEN excluded.preview ELSE preview END,
       last_message_at = MAX(last_message_at, excluded.last_message_at)`,
  ),
  addMedia: sqlite.prepare<unknown, [number, string, string, number]>(
    `INSERT INTO inbox_media (message_id, file_name, content_type, size) VALUES (?1, ?2, ?3, ?4)`,
  ),
  page: sqlite.prepare<ConversationRecord, [number | null, number | null, number | null, number, number]>(
    `SELECT ${CONVERSATION_COLUMNS} WHERE ${SCOPE}
       AND (?3 IS NULL OR ${SORT} < ?3 OR (${SORT} = ?3 AND cv.id < ?4))
     ORDER BY ${SORT} DESC, cv.id DESC LIMIT ?5`,
  ),
  count: sqlite.prepare<{ n: number }, [number | null, number | null]>(
    `SELECT count(*) AS n FROM conversations cv JOIN businesses b ON b.id = cv.business_id WHERE ${SCOPE}`,
  ),
  unreadCount: sqlite.prepare<{ n: number }, [number | null, number | null]>(
    `SELECT count(*) AS n FROM conversations cv JOIN businesses b ON b.id = cv.business_id WHERE ${SCOPE} AND cv.unread > 0`,
  ),
  one: sqlite.prepare<ConversationRecord, [number, number]>(
    `SELECT ${CONVERSATION_COLUMNS} WHERE cv.customer_id = ?1 AND cv.business_id = ?2`,
  ),
  // A follower who never wrote (GetConversation on the customer's page): the same columns from the subscription, as a
  // conversation with no reply (id 0, no preview; the time is when they subscribed).
  subscriber: sqlite.prepare<ConversationRecord, [number, number]>(
    `SELECT 0 AS id, s.customer_id AS customerId, s.business_id AS businessId, b.name AS businessName, b.owner_id AS ownerId,
       cu.phone, s.contact_preference AS lastChannel, s.consent_at AS lastMessageAt, '' AS preview, 0 AS unread, 0 AS sortKey,
       s.status AS subStatus, s.contact_preference AS subChannel, ${underOptOutSql("s.customer_id")} AS allOut,
       (SELECT e.source FROM consent_events e WHERE e.customer_id = s.customer_id AND e.kind = 'unsubscribed'
          AND (e.business_id = s.business_id OR e.business_id IS NULL) ORDER BY e.id DESC LIMIT 1) AS outSource,
       (SELECT ci.last_inbound_at FROM customer_inbound ci WHERE ci.customer_id = s.customer_id AND ci.channel = 'WhatsApp') AS whatsappAt
     FROM subscriptions s JOIN businesses b ON b.id = s.business_id JOIN customers cu ON cu.id = s.customer_id
     WHERE s.customer_id = ?1 AND s.business_id = ?2 AND s.status <> 'removed'`,
  ),
  markRead: sqlite.prepare<unknown, [number, number]>(`UPDATE conversations SET unread = 0 WHERE customer_id = ?1 AND business_id = ?2 AND unread > 0`),
  // The latest ?3 messages either way, newest first: the replies, and every delivery of this business to the person.
  thread: sqlite.prepare<ThreadRecord, [number, number, number]>(
    `SELECT * FROM (
       SELECT m.id, 'in' AS direction, 'reply' AS kind, m.body, m.channel, NULL AS status, NULL AS errorCode,
              NULL AS errorMessage, NULL AS imagePath, m.received_at AS at,
              (SELECT group_concat(x.id) FROM inbox_media x WHERE x.message_id = m.id) AS media
       FROM inbox_messages m WHERE m.customer_id = ?1 AND m.business_id = ?2
       UNION ALL
       SELECT d.id, 'out', br.kind, br.message_text, d.channel, d.status, d.error_code, d.error_message, br.image_path,
              COALESCE(d.sent_at, br.created_at), NULL
       FROM deliveries d JOIN broadcasts br ON br.id = d.broadcast_id WHERE d.customer_id = ?1 AND d.business_id = ?2
     ) ORDER BY at DESC, direction, id DESC LIMIT ?3`,
  ),
  media: sqlite.prepare<{ fileName: string; contentType: string; ownerId: number | null }, [number]>(
    `SELECT x.file_name AS fileName, x.content_type AS contentType, b.owner_id AS ownerId
     FROM inbox_media x JOIN inbox_messages m ON m.id = x.message_id LEFT JOIN businesses b ON b.id = m.business_id WHERE x.id = ?1`,
  ),
  // Retention: bodies cleared, media rows removed (their files are the caller's to delete).
  oldMedia: sqlite.prepare<{ id: number; fileName: string }, [number, number]>(
    `SELECT x.id, x.file_name AS fileName FROM inbox_media x JOIN inbox_messages m ON m.id = x.message_id
     WHERE m.received_at < ?1 LIMIT ?2`,
  ),
  deleteMedia: sqlite.prepare<unknown, [number]>(`DELETE FROM inbox_media WHERE id = ?1`),
  clearBodies: sqlite.prepare<unknown, [number]>(
    `UPDATE inbox_messages SET body = NULL, media_count = 0 WHERE received_at < ?1 AND (body IS NOT NULL OR media_count > 0)`,
  ),
  clearPreviews: sqlite.prepare<unknown, [number]>(`UPDATE conversations SET preview = '' WHERE last_message_at < ?1 AND preview <> ''`),
  // Forget: the person's media (by their customer id, or their number when they followed no one).
  mediaOfPerson: sqlite.prepare<{ fileName: string }, [number | null, string]>(
    `SELECT x.file_name AS fileName FROM inbox_media x JOIN inbox_messages m ON m.id = x.message_id
     WHERE m.customer_id = ?1 OR m.from_phone = ?2`,
  ),
  deletePerson: sqlite.prepare<unknown, [number | null, string]>(`DELETE FROM inbox_messages WHERE customer_id = ?1 OR from_phone = ?2`),
  // Email notices: the conversations of a business with unread replies that came after `since`.
  newSince: sqlite.prepare<ConversationRecord, [number, number]>(
    `SELECT ${CONVERSATION_COLUMNS} WHERE cv.business_id = ?1 AND cv.unread > 0 AND cv.last_message_at > ?2
     ORDER BY cv.last_message_at DESC LIMIT 50`,
  ),
  businessesWithNew: sqlite.prepare<{ businessId: number; notifiedAt: number | null }, [number]>(
    `SELECT cv.business_id AS businessId, n.notified_at AS notifiedAt FROM conversations cv
     LEFT JOIN inbox_notices n ON n.business_id = cv.business_id
     WHERE cv.unread > 0 AND cv.last_message_at > COALESCE(n.notified_at, 0) AND COALESCE(n.notified_at, 0) <= ?1
     GROUP BY cv.business_id`,
  ),
  noticed: sqlite.prepare<unknown, [number, number]>(
    `INSERT INTO inbox_notices (business_id, notified_at) VALUES (?1, ?2)
     ON CONFLICT (business_id) DO UPDATE SET notified_at = excluded.notified_at`,
  ),
}));

export function inboxRepo(db: Db) {
  return {
    /** The customer with this phone (E.164), or undefined. */
    customerIdByPhone: (phone: string): number | undefined => q(db).customerByPhone.get(phone)?.id,
    /** The business a reply from this customer belongs to; undefined when they follow (and followed) none. */
    businessFor: (customerId: number): number | undefined => q(db).businessFor.get(customerId)?.id,
    /** Stores one message; its id, or null when its MessageSid was stored before (a replay). With a business, the
     * conversation moves up and gains an unread reply. */
    store(r: StoredReply, preview: string): number | null {
      const id = q(db).insert.get(r.messageSid, r.customerId, r.businessId, r.fromPhone, r.channel, r.body, r.mediaCount, r.at)?.id ?? null;
      if (id !== null && r.customerId !== null && r.businessId !== null) q(db).bump.run(r.customerId, r.businessId, r.channel, r.at, preview);
      return id;
    },
    addMedia(messageId: number, fileName: string, contentType: string, size: number): void {
      q(db).addMedia.run(messageId, fileName, contentType, size);
    },
    /** `limit` + 1 conversations after the keyset (sort key, id), in the list's order. */
    page(ownerId: number | null, businessId: number | null, after: { key: number; id: number } | null, limit: number): ConversationRecord[] {
      return q(db).page.all(ownerId, businessId, after?.key ?? null, after?.id ?? 0, limit + 1);
    },
    count: (ownerId: number | null, businessId: number | null): number => q(db).count.get(ownerId, businessId)?.n ?? 0,
    unreadCount: (ownerId: number | null): number => q(db).unreadCount.get(ownerId, null)?.n ?? 0,
    find: (customerId: number, businessId: number): ConversationRecord | undefined => q(db).one.get(customerId, businessId) ?? undefined,
    /** A follower of the business who never wrote, as a conversation without replies; undefined for anyone else. */
    subscriberView: (customerId: number, businessId: number): ConversationRecord | undefined => q(db).subscriber.get(customerId, businessId) ?? undefined,
    markRead(customerId: number, businessId: number): void {
      q(db).markRead.run(customerId, businessId);
    },
    thread: (customerId: number, businessId: number, limit: number): ThreadRecord[] => q(db).thread.all(customerId, businessId, limit),
    media: (id: number) => q(db).media.get(id) ?? undefined,
    /** Up to `limit` media older than `before`: their rows go, their file names are returned (to delete). */
    pruneMedia(before: number, limit: number): string[] {
      const rows = q(db).oldMedia.all(before, limit);
      for (const r of rows) q(db).deleteMedia.run(r.id);
      return rows.map((r) => r.fileName);
    },
    /** Which of these file names still have a media row (the others are files whose business or owner was deleted). */
    knownMediaFiles(fileNames: string[]): Set<string> {
      if (fileNames.length === 0) return new Set();
      const rows = q(db).knownMedia.all(JSON.stringify(fileNames));
      return new Set(rows.map((r) => r.fileName));
    },
    /** Clears the bodies (and previews) of messages older than `before`; how many. */
    clearBodies(before: number): number {
      const n = q(db).clearBodies.run(before).changes;
      q(db).clearPreviews.run(before);
      return n;
    },
    /** Erases every message of the person (by customer id, or by number): how many, and their media's file names. */
    erasePerson(customerId: number | null, phone: string): { messages: number; files: string[] } {
      const files = q(db).mediaOfPerson.all(customerId, phone).map((r) => r.fileName);
      return { messages: q(db).deletePerson.run(customerId, phone).changes, files };
    },
    /** Businesses with new unread conversations whose last notice is at or before `notifiedBefore`. */
    businessesToNotify: (notifiedBefore: number) => q(db).businessesWithNew.all(notifiedBefore),
    newSince: (businessId: number, since: number): ConversationRecord[] => q(db).newSince.all(businessId, since),
    noticed(businessId: number, at: number): void {
      q(db).noticed.run(businessId, at);
    },
  };
}

export type InboxRepo = ReturnType<typeof inboxRepo>;
