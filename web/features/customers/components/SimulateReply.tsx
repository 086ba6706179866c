import { useEffect, useId, useState } from "react";
import { ApiError } from "../../../shared/api/client.ts";
import { CustomerNumberSearch } from "./CustomerNumberSearch.tsx";
import { type SandboxInfo, sandboxReplyApi } from "../api/sandbox-replies.ts";
import "../../../shared/styles/simulate-reply.css";

// "Try a reply": with messaging in the sandbox (no Twilio), an owner or the admin sends what a customer would text
// back (STOP, START, HELP or anything) through the real inbound webhook, and reads the reply they would get. The
// server lets an owner speak only for numbers of their own businesses.

const KEYWORDS = ["STOP", "START", "HELP"] as const;

/** The text of the <Message> in a TwiML answer, or null when there is none (no reply). */
export function replyText(twiml: string): string | null {
  const m = /<Message>([\s\S]*?)<\/Message>/.exec(twiml);
  if (!m) return null;
  const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return m[1]!.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => entities[e]!);
}

type Outcome = { kind: "reply"; sent: string; text: string | null } | { kind: "error"; message: string };

export function SimulateReply() {
  const id = useId();
  const [info, setInfo] = useState<SandboxInfo | null>(null);
  const [typed, setTyped] = useState("");
  const [other, setOther] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    let live = true;
    sandboxReplyApi
      .info()
      .then((i) => {
        if (live) setInfo(i);
      })
      // Only a helper for trying things out: without it the page is complete, so a failure is logged, not shown.
      .catch((e: unknown) => console.error("Error loading the sandbox reply panel:", e));
    return () => {
      live = false;
    };
  }, []);

  if (!info?.sandbox) return null;

  const from = typed.trim();

  async function send(body: string) {
    if (!from) {
      setOutcome({ kind: "error", message: "Choose a customer's number or type one." });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const twiml = await sandboxReplyApi.reply(from, body);
      setOutcome({ kind: "reply", sent: body, text: replyText(typeof twiml === "string" ? twiml : "") });
    } catch (e) {
      setOutcome({ kind: "error", message: e instanceof ApiError ? e.message : "Could not send the reply. Please try again." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="container simulate-reply" aria-labelledby={`${id}-title`}>
      <div className="card simulate-reply-card">
        <h2 id={`${id}-title`}>Try a reply</h2>
        <p className="simulate-reply-intro">
          Messages are in the sandbox: nothing reaches real phones. Send what a customer would text back and see what
          happens: STOP unsubscribes the number, START brings it back, HELP says who is writing.
        </p>
        <div className="simulate-reply-grid">
          <CustomerNumberSearch id={`${id}-from`} value={typed} onChange={setTyped} />
        </div>
        <div className="simulate-reply-actions" role="group" aria-label="Reply with">
          {KEYWORDS.map((k) => (
            <button key={k} type="button" className="btn btn-secondary" disabled={busy} onClick={() => send(k)}>
              {k}
            </button>
          ))}
        </div>
        <form
          className="simulate-reply-other"
          onSubmit={(e) => {
            e.preventDefault();
            if (other.trim()) void send(other);
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-other`}>Or any text</label>
            <input id={`${id}-other`} className="input" value={other} maxLength={160} onChange={(e) => setOther(e.target.value)} />
          </div>
          <button type="submit" className="btn btn-primary" disabled={busy || !other.trim()}>
            Send
          </button>
        </form>
        <div aria-live="polite">
          {outcome?.kind === "reply" && (
            <div className="alert alert-info simulate-reply-result">
              <p className="simulate-reply-sent">
                {from} sent <strong>{outcome.sent}</strong>
              </p>
              {outcome.text === null ? (
                <p>No reply: only STOP, START and HELP (and their synonyms) get one.</p>
              ) : (
                <p className="simulate-reply-bubble">{outcome.text}</p>
              )}
            </div>
          )}
          {outcome?.kind === "error" && (
            <p className="alert alert-error" role="alert">
              {outcome.message}
            </p>
          )}
        </div>
        {info.inboundUrl && (
          <details className="simulate-reply-url">
            <summary>Try it with curl</summary>
            <p>This server's sandbox inbound URL, with its key (keep it private):</p>
            <code>{`curl -d From=+14155550134 -d Body=HELP '${info.inboundUrl}'`}</code>
          </details>
        )}
      </div>
    </section>
  );
}
