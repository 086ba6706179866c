import { useEffect, useRef, useState } from "react";
import { Link, useSearch } from "wouter";
import type { PublicBusiness } from "../../src/schemas/businesses.ts";
import { CONSENT_LEGAL, consentText } from "../../src/schemas/consent.ts";
import { editCustomerSchema } from "../../src/schemas/customer-admin.ts";
import { publicSource } from "../../src/schemas/subscriptions.ts";
import { ApiError, CONNECTION_ERROR } from "../api/client.ts";
import { customerBusinessApi, imageUrl, subscriptionApi } from "../api/customers.ts";
import { ContactPreferenceCards, initials } from "../components/ContactPreferenceCards.tsx";
import { useForm } from "../components/form.tsx";
import { SubmitButton } from "../components/FormActions.tsx";
import { PhoneField } from "../components/PhoneField.tsx";
import { Spinner } from "../components/Spinner.tsx";
import { useSubmit } from "../components/useSubmit.ts";
import { paths } from "../paths.ts";
import "../styles/subscribe.css";

type State =
  | { kind: "loading" }
  | { kind: "not-found" }
  | { kind: "error"; message: string }
  | { kind: "ready"; business: PublicBusiness }
  | { kind: "done"; business: PublicBusiness; message: string };

export const SUBSCRIBE_NOT_FOUND_TITLE = "Business not found";
export const SUBSCRIBE_NOT_FOUND_TEXT = "This subscription link is not valid, or the business is no longer taking subscribers.";
const LOAD_FAILED = "We couldn't load this page. Please check your connection and try again.";

/** The consent text as stored, its last sentence's two names linked to the pages they name. */
function ConsentLine({ text }: { text: string }) {
  const lead = text.endsWith(CONSENT_LEGAL) ? text.slice(0, -CONSENT_LEGAL.length) : text;
  return (
    <p className="sub-consent" data-testid="consent">
      {lead}
      {lead !== text && (
        <>
          See our <Link href={paths.terms}>Terms</Link> and <Link href={paths.privacy}>Privacy Policy</Link>.
        </>
      )}
    </p>
  );
}

function BusinessMark({ business, size = "lg" }: { business: PublicBusiness; size?: "lg" | "sm" }) {
  const [broken, setBroken] = useState(false);
  const logo = imageUrl(business.logoImagePath);
  return (
    <span className={`sub-mark sub-mark-${size}`} aria-hidden="true">
      {logo && !broken ? <img src={logo} alt="" onError={() => setBroken(true)} /> : <span>{initials(business.name)}</span>}
    </span>
  );
}

function NotFound() {
  return (
    <section className="sub-screen">
      <div className="sub-wrap">
        <div className="sub-card sub-notfound">
          <span className="sub-notfound-icon" aria-hidden="true">
            ?
          </span>
          <h1>{SUBSCRIBE_NOT_FOUND_TITLE}</h1>
          <p>{SUBSCRIBE_NOT_FOUND_TEXT}</p>
          <Link href={paths.businesses} className="btn btn-primary btn-block btn-lg">
            Browse local businesses
          </Link>
        </div>
      </div>
    </section>
  );
}

function Success({ business, message }: { business: PublicBusiness; message: string }) {
  const card = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form was scrolled down to its button (on a phone, below the fold): bring the whole card to the top, clear of
  // the sticky header (its scroll-margin), rather than letting focus() scroll only as far as the heading's bottom edge.
  useEffect(() => {
    card.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="sub-screen">
      <div className="sub-wrap">
        <div ref={card} className="sub-card sub-success" role="status">
          <span className="sub-success-icon" aria-hidden="true">
            <svg width="34" height="34" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
              <path d="M5 12.5l4.5 4.5L19 7.5" />
            </svg>
          </span>
          <h1 ref={heading} tabIndex={-1}>
            You're subscribed!
          </h1>
          <p className="sub-success-message">{message}</p>
          <div className="sub-success-business">
            <BusinessMark business={business} size="sm" />
            <span>{business.name}</span>
          </div>
          <p className="sub-fineprint">Reply STOP at any time to unsubscribe.</p>
        </div>
      </div>
    </section>
  );
}

export function SubscribePage() {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const rawId = params.get("id") ?? "";
  const source = publicSource(params.get("src"));
  const [state, setState] = useState<State>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    if (!/^[1-9]\d{0,15}$/.test(rawId)) {
      setState({ kind: "not-found" });
      return;
    }
    setState({ kind: "loading" });
    customerBusinessApi
      .getPublic(rawId)
      .then((business) => {
        if (!live) return;
        // An owner previewing their own inactive business gets it back; visitors could not subscribe to it.
        setState(business.isActive ? { kind: "ready", business } : { kind: "not-found" });
      })
      .catch((err) => {
        if (!live) return;
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setState({ kind: "not-found" });
        else setState({ kind: "error", message: err instanceof ApiError && err.status === 0 ? CONNECTION_ERROR : LOAD_FAILED });
      });
    return () => {
      live = false;
    };
  }, [rawId, attempt]);

  if (state.kind === "loading") return <Spinner label="Loading business..." />;
  if (state.kind === "not-found") return <NotFound />;
  if (state.kind === "error")
    return (
      <section className="sub-screen">
        <div className="sub-wrap">
          <div className="sub-card">
            <div className="alert alert-error" role="alert">
              {state.message}
            </div>
            <button type="button" className="btn btn-primary btn-block btn-lg" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          </div>
        </div>
      </section>
    );
  if (state.kind === "done") return <Success business={state.business} message={state.message} />;
  return (
    <SubscribeForm
      business={state.business}
      source={source}
      onDone={(message) => setState({ kind: "done", business: state.business, message })}
      onGone={() => setState({ kind: "not-found" })}
    />
  );
}

function SubscribeForm({
  business,
  source,
  onDone,
  onGone,
}: {
  business: PublicBusiness;
  source: "qr" | "list";
  onDone: (message: string) => void;
  onGone: () => void;
}) {
  const form = useForm(editCustomerSchema, { phone: "", contactPreference: "" });
  const [alert, setAlert] = useState<string | null>(null);
  const [imageBroken, setImageBroken] = useState(false);
  const sample = imageUrl(business.sampleImagePath);
  const pref = form.values.contactPreference || null;
  // Any new attempt, valid or not, takes the last failure's alert away.
  const attempt = { submit: () => (setAlert(null), form.submit()), output: form.output };
  const { busy, onSubmit, formRef } = useSubmit(attempt, {
    async send(fields) {
      const res = await subscriptionApi.subscribe({ businessId: business.id, ...fields, source });
      onDone(res.message);
    },
    fail(err) {
      if (err instanceof ApiError && err.status === 404) return onGone();
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length) form.setServerErrors(err.fields);
      else if (err instanceof ApiError && err.status === 0) setAlert(CONNECTION_ERROR);
      else setAlert(err instanceof ApiError && err.message ? err.message : "Subscription failed. Please try again.");
    },
  });

  return (
    <section className="sub-screen">
      <div className="sub-wrap sub-grid">
        <div className="sub-info">
        <header className="sub-hero">
          <BusinessMark business={business} />
          <div className="sub-hero-text">
            <p className="sub-eyebrow">{business.businessType?.name ?? "Local business"}</p>
            <h1>{business.name}</h1>
            <p className="sub-address">{business.address}</p>
          </div>
        </header>

        <article className="sub-offer">
          {sample && !imageBroken && <img className="sub-offer-img" src={sample} alt={business.sampleProductText} onError={() => setImageBroken(true)} />}
          <div className="sub-offer-body">
            <span className="sub-offer-tag">Sample offer</span>
            <p>{business.sampleProductText}</p>
          </div>
        </article>
        </div>

        <div className="sub-side">
        <form ref={formRef} className="sub-card sub-form" onSubmit={onSubmit} noValidate aria-label={`Subscribe to ${business.name}`}>
          <h2>Get deals on your phone</h2>
          <p className="sub-lead">Promotions, offers, flash sales and events from {business.name}, straight to your phone.</p>
          {alert && (
            <div className="alert alert-error" role="alert">
              {alert}
            </div>
          )}
          <PhoneField label="Phone number" hint="We'll only use it for these notifications." autoComplete="tel" {...form.bind("phone")} />
          <ContactPreferenceCards legend="Send my deals by" {...form.bind("contactPreference")} onBlur={undefined} />
          <ConsentLine text={consentText(business, pref)} />
          <SubmitButton className="btn-block btn-lg sub-submit" busy={busy} label="Subscribe" busyLabel="Subscribing..." />
        </form>
        <p className="sub-footnote">
          Free to join · Your number is never shared · <Link href={paths.faq}>FAQ</Link>
        </p>
        </div>
      </div>
    </section>
  );
}
