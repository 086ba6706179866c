import { type Ref, useId } from "react";
import type { SegmentCount } from "../../../../src/schemas/sms-segments.ts";
import { FieldNotes } from "../../../shared/components/form.tsx";
import { MessageCounter } from "./MessageCounter.tsx";

export const MESSAGE_PLACEHOLDER = "Enter your message to send to all customers...";

export const helpLine = (name: string | null) => `This message will be sent to all customers subscribed to ${name ?? "this business"}.`;

/**
 * The broadcast's required Message Text: the textarea, its live SMS counter, the help line naming the business and
 * the error. Its counter counts SMS segments, not a length limit, so it is not a TextAreaField.
 */
export function MessageTextField({
  ref,
  value,
  text,
  count,
  businessName,
  error,
  disabled,
  onChange,
}: {
  ref: Ref<HTMLTextAreaElement>;
  value: string;
  /** The message as it will be sent (trimmed): what the counter counts. */
  text: string;
  count: SegmentCount;
  businessName: string | null;
  error?: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const describedBy = [`${id}-help`, `${id}-counter`, error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>
        Message Text <span className="bc-required" aria-hidden="true">*</span>
      </label>
      <textarea
        ref={ref}
        id={id}
        name="MessageText"
        className="input bc-textarea"
        placeholder={MESSAGE_PLACEHOLDER}
        rows={6}
        required
        aria-required="true"
        aria-invalid={!!error}
        aria-describedby={describedBy}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
      <MessageCounter id={`${id}-counter`} text={text} count={count} />
      <div id={`${id}-help`} className="field-hint bc-help">
        {helpLine(businessName)}
      </div>
      <FieldNotes id={id} error={error} />
    </div>
  );
}
