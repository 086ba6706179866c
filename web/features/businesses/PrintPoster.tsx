import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import type { PublicBusiness } from "../../../src/schemas/businesses.ts";
import { DEFAULT_MESSAGES_PER_WEEK } from "../../../src/schemas/businesses.ts";
import { BUSINESS_NOT_FOUND } from "../../../src/schemas/texts.ts";
import { DEFAULT_QR_MESSAGE, legalLinks, POSTER_WORDS, posterDisclosure, posterFooter, posterOfferDeal, subscribeLink, textToJoinLine } from "../../../src/schemas/poster-text.ts";
import { brandName, site } from "../../shared/state/site.ts";
import { BUSINESS_LOAD_FAILED, businessReadApi } from "../../shared/api/businesses.ts";
import { ApiError } from "../../shared/api/client.ts";
import { BusinessBadge, linkBase, QR_IMAGE_ERROR, qrImageUrl, UnreachableLinkWarning } from "./components/QrModal.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { paths } from "../../shared/paths.ts";
import "../../shared/styles/qr.css";
import "../../shared/styles/poster-join.css";

/** Spec, section 9: print 500 ms after the QR image loads, or after 1 s if the load event never comes. */
export const PRINT_DELAY_MS = 500;
export const PRINT_FALLBACK_MS = 1000;

/** The poster itself: the same words as the PDF (src/schemas/poster-text.ts). */
export function Poster({ business, origin, onQrLoad, onQrError }: {
  business: PublicBusiness;
  origin: string;
  onQrLoad?: () => void;
  onQrError?: () => void;
}) {
  useSignals();
  const [qrFailed, setQrFailed] = useState(false);
  const typeName = business.businessType?.name ?? "";
  const deal = posterOfferDeal(business.posterOffer, typeName);
  const link = subscribeLink(origin, business.id);
  const join = textToJoinLine(business.keyword, site.value?.smsNumber);
  return (
    <article className="poster-sheet" aria-label={`${business.name} QR code poster`}>
      <header className="ps-band">
        <BusinessBadge business={business} className="ps-badge" />
        <h1 className="ps-name">{business.name}</h1>
        {typeName && <p className="ps-type">{typeName}</p>}
      </header>
      <div className="ps-body">
        <p className="ps-headline">{POSTER_WORDS.headline}</p>
        <p className="ps-sub">{POSTER_WORDS.subheadline}</p>
        <div className="ps-qr">
          {qrFailed ? (
            <p className="ps-qr-error" role="alert">
              {QR_IMAGE_ERROR}
            </p>
          ) : (
            <img
              src={qrImageUrl(business.id)}
              alt={`QR code to subscribe to ${business.name}`}
              onLoad={onQrLoad}
              onError={() => {
                setQrFailed(true);
                onQrError?.();
              }}
            />
          )}
        </div>
        <p className="ps-message">{business.qrMessage?.trim() || DEFAULT_QR_MESSAGE}</p>
        {business.sampleProductText && <p className="ps-product">{business.sampleProductText}</p>}
        {deal && (
          <div className="ps-deal">
            {deal.label && <span className="ps-deal-label">{deal.label}</span>}
            <span className="ps-deal-offer">{deal.offer}</span>
          </div>
        )}
        <ol className="ps-steps">
          {POSTER_WORDS.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        {join && <p className="ps-join">{join}</p>}
      </div>
      <footer className="ps-foot">
        <p className="ps-link">
          {POSTER_WORDS.linkLabel} <span>{link}</span>
        </p>
        <p className="ps-unsub">{POSTER_WORDS.unsubscribeNote}</p>
        <p className="ps-disclosure">{posterDisclosure(business.messagesPerWeek ?? DEFAULT_MESSAGES_PER_WEEK)}</p>
        <p className="ps-disclosure ps-legal">{legalLinks(origin, business.id)}</p>
        <p className="ps-powered">{posterFooter(brandName.value)}</p>
      </footer>
    </article>
  );
}

type State = { kind: "loading" } | { kind: "error"; message: string } | { kind: "ready"; business: PublicBusiness };

/** /print/:id — the poster alone (no nav or footer), printed once the QR code has loaded. */
export function PrintPosterPage({ id = "" }: { id?: string }) {
  useSignals();
  const [state, setState] = useState<State>({ kind: "loading" });
  const [qrBroken, setQrBroken] = useState(false);
  const printed = useRef(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => {
    document.body.classList.add("print-page");
    return () => {
      document.body.classList.remove("print-page");
      for (const t of timers.current) clearTimeout(t);
    };
  }, []);

  useEffect(() => {
    let live = true;
    if (!/^[1-9]\d{0,15}$/.test(id)) {
      setState({ kind: "error", message: BUSINESS_NOT_FOUND });
      return;
    }
    businessReadApi
      .get(id)
      .then((business) => live && setState({ kind: "ready", business }))
      .catch((e: unknown) => {
        if (!live) return;
        const message = e instanceof ApiError && e.status === 404 ? BUSINESS_NOT_FOUND : BUSINESS_LOAD_FAILED;
        setState({ kind: "error", message });
      });
    return () => {
      live = false;
    };
  }, [id]);

  function printOnce() {
    if (printed.current) return;
    printed.current = true;
    for (const t of timers.current) clearTimeout(t);
    window.print();
  }

  // Fallback: the poster is on screen but the image's load event never came.
  useEffect(() => {
    if (state.kind !== "ready") return;
    document.title = `${state.business.name} - QR poster`;
    timers.current.push(setTimeout(printOnce, PRINT_FALLBACK_MS));
  }, [state]);

  function onQrLoad() {
    for (const t of timers.current) clearTimeout(t);
    timers.current = [setTimeout(printOnce, PRINT_DELAY_MS)];
  }

  function onQrError() {
    // Nothing worth printing without the code.
    printed.current = true;
    for (const t of timers.current) clearTimeout(t);
    setQrBroken(true);
  }

  return (
    <div className="print-layout">
      <div className="print-toolbar">
        <Link href={paths.myBusiness} className="btn btn-ghost btn-sm">
          Back
        </Link>
        <span className="print-hint">{qrBroken ? "The QR code could not be loaded." : "Your poster opens in the print dialog."}</span>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => window.print()} disabled={state.kind !== "ready" || qrBroken}>
          Print
        </button>
      </div>
      {/* On screen only (print CSS hides it): the poster itself is what customers see. */}
      {state.kind === "ready" && state.business.isActive && <UnreachableLinkWarning className="print-warning" />}
      {state.kind === "loading" && <Spinner label="Loading the poster..." />}
      {state.kind === "error" && (
        <div className="card empty-state print-error" role="alert">
          <p>{state.message}</p>
          <Link href={paths.myBusiness} className="btn btn-secondary">
            Back to My Business
          </Link>
        </div>
      )}
      {state.kind === "ready" && <Poster business={state.business} origin={linkBase()} onQrLoad={onQrLoad} onQrError={onQrError} />}
    </div>
  );
}
