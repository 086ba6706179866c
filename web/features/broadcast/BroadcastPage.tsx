import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { countSegments } from "../../../src/schemas/sms-segments.ts";
import { withCouponCode } from "../../../src/schemas/tracked-text.ts";
import { MESSAGE_REQUIRED } from "../../../src/schemas/texts.ts";
import { BUSINESS_LOAD_FAILED } from "../../shared/api/businesses.ts";
import { broadcastErrorToast, duplicateOf, publishOutcome } from "./api/broadcast-errors.ts";
import { broadcastApi } from "./api/broadcasts.ts";
import { BroadcastHistory } from "./components/BroadcastHistory.tsx";
import { ImageField, useChosenImage } from "./components/ImageField.tsx";
import { MessagePreview } from "./components/MessagePreview.tsx";
import { RecipientsLine } from "./components/RecipientsLine.tsx";
import { MessageTextField } from "./components/MessageTextField.tsx";
import { type TemplatePick, templateFields, templatePickProblem, WhatsAppTemplateField } from "./components/WhatsAppTemplateField.tsx";
import { type EarlierBroadcast, earlierBroadcast, RepeatBroadcastDialog } from "./components/RepeatBroadcastDialog.tsx";
import { useConfirmSend } from "./components/ConfirmSendDialog.tsx";
import { TestSendPanel } from "./components/TestSendPanel.tsx";
import { EXAMPLE_COUPON, hasOfferProblem, NO_OFFER, OfferFields, offerFields } from "./components/OfferFields.tsx";
import { TrackLinksField, useTrackLinks } from "./components/TrackLinksField.tsx";
import { PendingApprovalNotice } from "../../shared/components/PendingApproval.tsx";
import { RegistrationNote } from "../registration/index.ts";
import { formatWhen, SendLaterField, sendLaterError, sendLaterIso } from "./components/SendLaterField.tsx";
import { SubmitButton } from "../../shared/components/FormActions.tsx";
import { paths } from "../../shared/paths.ts";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/broadcast.css";
import { useBroadcastBusiness } from "./useBroadcastBusiness.ts";
import { ApiError } from "../../shared/api/client.ts";
import { forgetDraft, keptDraft } from "./kept-draft.ts";
import { DraftRestoredNotice, SessionEndedNotice } from "./components/SessionEnded.tsx";

/** Spec section 9: after a successful broadcast, back to the owner's businesses after 1 s. */
export const REDIRECT_DELAY_MS = 1000;
export const BROADCAST_SCHEDULED = "Broadcast Scheduled";
/** Where the back arrow, Cancel and the post-send redirect go: the owner's businesses list. */
export const BACK_PATH = paths.myBusiness;

function SendIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M22 2 11 13M22 2l-7 20-4-9-9-4 20-7z" />
    </svg>
  );
}

/** The toasts for a publish's 200 answer (spec section 7), and what became of the broadcast. */
function announce(answer: unknown): "not sent" | "sent" | "scheduled" {
  const outcome = publishOutcome(answer as Parameters<typeof publishOutcome>[0]);
  if (outcome.kind === "warning") {
    notify.warning(outcome.toast.title, outcome.toast.message);
    return "not sent";
  }
  if (outcome.kind === "failed") {
    notify.error(outcome.toast.title, outcome.toast.message);
    return "not sent";
  }
  const scheduledFor = (answer as { scheduledFor?: unknown })?.scheduledFor;
  const scheduled = typeof scheduledFor === "string";
  // The server's sentence carries the ISO time; the owner reads it in their own words and zone.
  if (scheduled) notify.success(BROADCAST_SCHEDULED, `It goes out ${formatWhen(scheduledFor)} to whoever is subscribed then.`);
  else notify.success(outcome.toast.title, outcome.toast.message);
  const skipped = (answer as { warning?: unknown })?.warning;
  if (typeof skipped === "string" && skipped) notify.warning("Some WhatsApp recipients skipped", skipped);
  return scheduled ? "scheduled" : "sent";
}

/** /businesses/broadcast/:id: write a message (and an optional image) and send it to every subscriber. */
export function BroadcastPage({ id: idProp }: { id?: string } = {}) {
  const params = useParams<{ id?: string }>();
  const businessId = idProp ?? params.id ?? "";
  const [, navigate] = useLocation();

  const { businessName, loadFailed, counts } = useBroadcastBusiness(businessId);
  // A draft kept when the session ended mid-writing (SessionEnded.tsx), back on the form after signing in again.
  const [restored] = useState(() => keptDraft(businessId));
  useEffect(() => forgetDraft(businessId), [businessId]);
  const [sessionEnded, setSessionEnded] = useState(false);
  const [text, setText] = useState(restored?.text ?? "");
  const [submitted, setSubmitted] = useState(false);
  const chosen = useChosenImage();
  const { image, checking } = chosen;
  const [sending, setSending] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [historyKey, setHistoryKey] = useState(0);
  /** "Send later": the toggle and the datetime-local value (the browser's zone). */
  const [later, setLater] = useState(restored?.later ?? false);
  const [laterAt, setLaterAt] = useState(restored?.laterAt ?? "");
  /** The broadcast this one would repeat (409 duplicate_broadcast): the dialog is open while set. */
  const [repeatOf, setRepeatOf] = useState<EarlierBroadcast | null>(null);
  const [template, setTemplate] = useState<TemplatePick | null>(null);
  const [offer, setOffer] = useState(NO_OFFER);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const confirmStep = useConfirmSend(businessId, () => setSessionEnded(true));
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const message = text.trim();
  const links = useTrackLinks(message);
  // Counted and shown as sent (issue 25): each link as a short link when tracked, {code} as a person's own code.
  const unique = offer.kind === "unique";
  const asSent = useMemo(() => (unique ? withCouponCode(links.asSent, EXAMPLE_COUPON) : links.asSent), [links.asSent, unique]);
  const count = useMemo(() => countSegments(asSent), [asSent]);
  const textError = submitted && !message ? MESSAGE_REQUIRED : undefined;
  const laterIso = later ? sendLaterIso(laterAt) : null;
  const laterError = later && submitted ? sendLaterError(laterAt) : null;
  const when = laterIso ? formatWhen(laterIso) : null;
  const busy = sending || leaving;
  const locked = sending || loadFailed;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // While a picked image is still being checked, sending would leave it out.
    if (busy || loadFailed || checking || confirmStep.checking) return;
    setSubmitted(true);
    if (!message) {
      textarea.current?.focus();
      return;
    }
    if (later && sendLaterError(laterAt)) return;
    if (templatePickProblem(template, !!image)) return;
    if (hasOfferProblem(offer, message)) return;
    await confirmStep.ask(message, !!image, when, () => void send(false), template !== null, links.requested, unique);
  }

  async function send(confirm: boolean) {
    setSending(true);
    let answer: unknown;
    try {
      answer = await broadcastApi.publish({ businessId, messageText: message, image: image?.file, confirm, scheduledFor: laterIso, trackLinks: links.requested, ...templateFields(template), ...offerFields(offer) });
    } catch (err) {
      const earlier = confirm ? null : duplicateOf(err);
      if (earlier !== null) {
        setRepeatOf(await earlierBroadcast(earlier));
        setSending(false);
        return;
      }
      setRepeatOf(null);
      if (err instanceof ApiError && err.status === 401) {
        setSessionEnded(true);
        setSending(false);
        return;
      }
      const t = broadcastErrorToast(err);
      notify.error(t.title, t.message);
      setSending(false);
      return;
    }
    setSending(false);
    setRepeatOf(null);
    const result = announce(answer);
    if (result === "not sent") return;
    setTemplate(null);
    setOffer(NO_OFFER);
    setText("");
    setSubmitted(false);
    chosen.clear();
    setHistoryKey((k) => k + 1);
    if (result === "scheduled") {
      // Stays on the screen: the history below shows it, with Edit and Cancel until it starts.
      setLater(false);
      setLaterAt("");
      return;
    }
    setLeaving(true);
    redirectTimer.current = setTimeout(() => navigate(BACK_PATH), REDIRECT_DELAY_MS);
  }

  return (
    <section className="container page bc-page">
      <header className="bc-header">
        <Link href={BACK_PATH} className="bc-back" aria-label="Back to My Business">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M15 18l-6-6 6-6" />
          </svg>
        </Link>
        <div className="bc-header-text">
          <p className="bc-eyebrow">Broadcast Message</p>
          <h1 className="bc-title" data-testid="business-name">
            {businessName ?? <span className="bc-title-placeholder">Send a broadcast</span>}
          </h1>
        </div>
      </header>

      <PendingApprovalNotice />
      {businessId && <RegistrationNote businessId={businessId} />}

      {sessionEnded && <SessionEndedNotice businessId={businessId} draft={() => ({ text, later, laterAt, hadImage: !!image })} />}
      {restored && !sessionEnded && <DraftRestoredNotice hadImage={restored.hadImage} />}

      {loadFailed && (
        <div className="alert alert-error" role="alert">
          {BUSINESS_LOAD_FAILED}
        </div>
      )}

      <div className="bc-layout">
        <form className="card bc-form" onSubmit={onSubmit} noValidate aria-label="Broadcast message">
          <MessageTextField
            ref={textarea}
            value={text}
            text={message}
            count={count}
            businessName={businessName}
            error={textError}
            disabled={locked}
            onChange={setText}
          />

          <ImageField image={image} error={chosen.error} checking={checking} disabled={busy || loadFailed} onChoose={chosen.choose} onRemove={chosen.remove} />

          <WhatsAppTemplateField businessId={businessId} whatsapp={counts?.whatsapp ?? 0} value={template} onChange={setTemplate} imageUrl={image?.url ?? null} submitted={submitted} disabled={busy || loadFailed} />

          <OfferFields value={offer} text={text} textarea={textarea} submitted={submitted} disabled={busy || loadFailed} onChange={setOffer} onText={setText} />
          <TrackLinksField state={links} text={message} disabled={busy || loadFailed} />

          <SendLaterField enabled={later} value={laterAt} error={laterError} disabled={busy || loadFailed} onToggle={setLater} onChange={setLaterAt} />

          <RecipientsLine counts={counts} segments={count.segments} hasImage={!!image} />

          <div className="form-actions bc-actions">
            <Link href={BACK_PATH} className="btn btn-secondary">
              Cancel
            </Link>
            <SubmitButton className="bc-send" busy={sending || confirmStep.checking} disabled={leaving || loadFailed || checking} label={later ? "Schedule Broadcast" : "Send Broadcast"} busyLabel={later ? "Scheduling..." : "Sending..."} icon={<SendIcon />} />
          </div>

          <TestSendPanel businessId={businessId} text={message} image={image?.file ?? null} template={templateFields(template)} disabled={busy || loadFailed || checking} />
        </form>

        <MessagePreview text={asSent} imageUrl={image?.url ?? null} businessName={businessName} when={when} />
      </div>

      {!loadFailed && <BroadcastHistory businessId={businessId} refreshKey={historyKey} />}

      {confirmStep.dialog}
      {repeatOf && <RepeatBroadcastDialog earlier={repeatOf} busy={sending} onConfirm={() => void send(true)} onCancel={() => setRepeatOf(null)} />}
    </section>
  );
}
