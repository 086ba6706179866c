// The live 'Message Preview': the typed text (and image) in a phone frame, as a subscriber's phone would show it.

function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => [...w][0]?.toUpperCase() ?? "")
    .join("");
}

export const PREVIEW_PLACEHOLDER = "Your message will appear here as you type...";

/** `when`: the chosen "Send later" time, already formatted; null = it goes now. */
export function MessagePreview({
  text,
  imageUrl,
  businessName,
  when = null,
}: {
  text: string;
  imageUrl: string | null;
  businessName: string | null;
  when?: string | null;
}) {
  const name = businessName ?? "Your business";
  const empty = !text.trim() && !imageUrl;
  return (
    <section className="bc-preview" aria-labelledby="bc-preview-title">
      <h2 id="bc-preview-title" className="bc-section-title">
        Message Preview
      </h2>
      <div className="bc-phone">
        <div className="bc-phone-notch" aria-hidden="true" />
        <div className="bc-phone-top">
          <span className="bc-phone-avatar" aria-hidden="true">
            {initialsOf(name) || "?"}
          </span>
          <span className="bc-phone-contact">
            <strong>{name}</strong>
            <small>Text message</small>
          </span>
        </div>
        <div className="bc-phone-thread" data-testid="preview-thread">
          {empty ? (
            <p className="bc-phone-placeholder">{PREVIEW_PLACEHOLDER}</p>
          ) : (
            <div className="bc-bubble">
              {imageUrl && <img className="bc-bubble-image" src={imageUrl} alt="" />}
              {text.trim() && <p className="bc-bubble-text">{text}</p>}
              <span className="bc-bubble-time">{when ?? "now"}</span>
            </div>
          )}
          {when && (
            <span className="bc-bubble-when" data-testid="preview-when">
              Scheduled: goes out {when}
            </span>
          )}
        </div>
        <div className="bc-phone-footer" data-testid="preview-footer">
          <span>From: {name}</span>
          <span aria-hidden="true">SMS · WhatsApp</span>
        </div>
      </div>
    </section>
  );
}
