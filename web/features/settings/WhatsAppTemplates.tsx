import { useEffect, useState } from "react";
import { whatsappApi, type WhatsAppTemplate } from "../../shared/api/whatsapp-templates.ts";
import { serverMessage } from "../../shared/api/client.ts";
import { Spinner } from "../../shared/components/Spinner.tsx";

// Settings: the WhatsApp templates of the Twilio account (or the sandbox's demo ones) with their approval. Broadcasts
// to WhatsApp outside the 24-hour window need an approved one; they are made and submitted in Twilio's Console.

const STATUS_BADGE: Record<string, string> = {
  approved: "badge-success",
  pending: "badge-warning",
  received: "badge-warning",
  rejected: "badge-danger",
  paused: "badge-danger",
  disabled: "badge-danger",
};

export function TemplateStatusBadge({ status }: { status: string }) {
  return <span className={`badge ${STATUS_BADGE[status] ?? "badge-muted"}`}>{status === "unsubmitted" ? "not submitted" : status}</span>;
}

export function WhatsAppTemplates() {
  const [templates, setTemplates] = useState<WhatsAppTemplate[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  function load() {
    setError(null);
    setTemplates(null);
    whatsappApi.templates().then(setTemplates, (err: unknown) => {
      console.error("Error loading WhatsApp templates:", err);
      setError(serverMessage((err as { body?: unknown })?.body) ?? "The WhatsApp templates could not be loaded.");
    });
  }
  useEffect(load, []);

  return (
    <section className="card settings-section" aria-labelledby="settings-wa-templates" data-testid="wa-templates">
      <h2 id="settings-wa-templates">WhatsApp templates</h2>
      <p className="muted">
        WhatsApp accepts a promotion only as an approved template, unless the customer wrote to you in the last 24 hours. Create and submit
        templates in Twilio's Console (Content Template Builder); for an image header, use a media URL ending in your public URL's
        /uploads/{"{{n}}"}: the broadcast's image goes there.
      </p>
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}{" "}
          <button type="button" className="btn btn-secondary btn-sm" onClick={load}>
            Try again
          </button>
        </div>
      ) : templates === null ? (
        <Spinner label="Loading templates..." />
      ) : templates.length === 0 ? (
        <p className="muted">No templates in this Twilio account yet.</p>
      ) : (
        <ul className="wa-template-list">
          {templates.map((t) => (
            <li key={t.sid} className="wa-template" data-testid="wa-template">
              <div className="wa-template-head">
                <strong>{t.name}</strong>
                <TemplateStatusBadge status={t.status} />
                {t.category && <span className="badge badge-muted">{t.category.toLowerCase()}</span>}
                {t.mediaHeader && <span className="badge badge-info">image header</span>}
                {t.language && <span className="muted">{t.language}</span>}
              </div>
              <p className="wa-template-body">{t.body || <em>(no text)</em>}</p>
              <code className="wa-template-sid">{t.sid}</code>
              {t.rejectionReason && <p className="field-error">Rejected: {t.rejectionReason}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
