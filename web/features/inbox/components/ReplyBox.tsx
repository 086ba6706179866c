import { type FormEvent, useId, useState } from "react";
import { type ConversationRow, REPLY_MAX_LENGTH, type ThreadItem } from "../../../../src/schemas/inbox.ts";
import { ApiError } from "../../../shared/api/client.ts";
import { CharCounter } from "../../../shared/components/TextFields.tsx";
import { formatDateTime } from "../../../shared/format.ts";
import { notify } from "../../../shared/state/toasts.ts";
import { type TemplatePick, templateFields, templatePickProblem } from "../../broadcast/index.ts";
import { inboxApi } from "../api.ts";
import { TemplatePicker } from "./TemplatePicker.tsx";

export const WINDOW_CLOSED_NOTE = "They last wrote more than 24 hours ago: WhatsApp allows only an approved template now.";
export const CHOOSE_TEMPLATE = "Choose a template to answer on WhatsApp.";
export const REPLY_SENT = "Reply sent";
export const REPLY_FAILED = "Reply not sent";
const TYPE_A_REPLY = "Type a reply first.";

/** The sentence under the box: how this answer will go. */
function channelHint(c: ConversationRow): string {
  if (c.channel === "SMS") return "Sent by SMS.";
  if (!c.whatsappWindowEndsAt) return "Sent on WhatsApp.";
  return `Sent on WhatsApp; free-form replies are open until ${formatDateTime(c.whatsappWindowEndsAt)}.`;
}

/**
 * The answer to a subscribed person: SMS at any time; WhatsApp free-form only within 24 hours of their last message,
 * else an approved template. On failure the text stays, with the server's reason.
 */
export function ReplyBox({ conversation, onSent }: { conversation: ConversationRow; onSent: (item: ThreadItem) => void }) {
  const id = useId();
  const [text, setText] = useState("");
  const [pick, setPick] = useState<TemplatePick | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const needsTemplate = conversation.channel === "WhatsApp" && !conversation.whatsappWindowOpen;

  function problem(): string | null {
    if (needsTemplate) return pick ? templatePickProblem(pick, false) : CHOOSE_TEMPLATE;
    if (text.trim() === "") return TYPE_A_REPLY;
    return text.length > REPLY_MAX_LENGTH ? `Keep the reply to ${REPLY_MAX_LENGTH} characters.` : null;
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const wrong = problem();
    setError(wrong);
    if (wrong || sending) return;
    setSending(true);
    try {
      const template = needsTemplate ? templateFields(pick) : null;
      const { customerId, businessId } = conversation;
      const result = await inboxApi.reply({ customerId, businessId, messageText: needsTemplate ? "" : text, ...template });
      setText("");
      setPick(null);
      onSent(result.item);
      notify.success(REPLY_SENT, result.heldUntil ? `Quiet hours: it goes at ${formatDateTime(result.heldUntil)}.` : `To ${conversation.phone}.`);
    } catch (err) {
      const reason = err instanceof ApiError ? (err.fields.messageText ?? err.message) : "The reply could not be sent.";
      setError(reason);
      notify.error(REPLY_FAILED, reason);
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="inbox-reply" onSubmit={onSubmit} noValidate aria-label="Reply">
      {needsTemplate ? (
        <>
          <p className="alert alert-warning inbox-window-closed" role="status">
            {WINDOW_CLOSED_NOTE}
          </p>
          <TemplatePicker value={pick} onChange={setPick} disabled={sending} />
        </>
      ) : (
        <div className="field">
          <label htmlFor={id}>Your reply</label>
          <textarea
            id={id}
            className="input"
            rows={3}
            value={text}
            disabled={sending}
            aria-invalid={error ? true : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          <p className="field-hint inbox-reply-hint">
            <span>{channelHint(conversation)}</span>
            <CharCounter length={text.length} max={REPLY_MAX_LENGTH} />
          </p>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="inbox-reply-actions">
        <button type="submit" className="btn btn-primary" disabled={sending} aria-busy={sending}>
          {sending ? "Sending..." : needsTemplate ? "Send template" : "Send reply"}
        </button>
      </div>
    </form>
  );
}
