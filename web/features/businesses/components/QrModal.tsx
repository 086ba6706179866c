import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "wouter";
import type { PublicBusiness } from "../../../../src/schemas/businesses.ts";
import { DEFAULT_QR_MESSAGE, initials, subscribeLink } from "../../../../src/schemas/poster-text.ts";
import { UNREACHABLE_LINK_FIX, UNREACHABLE_LINK_WARNING } from "../../../../src/schemas/public-url.ts";
import { paths } from "../../../shared/paths.ts";
import { isAdmin, isAuthenticated } from "../../../shared/state/session.ts";
import { site } from "../../../shared/state/site.ts";
import { Dialog } from "../../../shared/components/Dialog.tsx";
import "../../../shared/styles/qr.css";
import { copyText } from "../../../shared/clipboard.ts";

export const QR_IMAGE_ERROR = "Failed to load QR code image. Please try again.";
export const QR_INACTIVE = "This business is inactive, so it has no QR code. Make it active to let customers subscribe.";
/** Why an inactive business's window offers no link to copy and no poster to print: both would lead nowhere. */
export const QR_INACTIVE_NO_LINK = "No link to copy and no poster to print: the subscribe page refuses new subscribers while the business is inactive. Edit the business and tick Active to get them back.";
const COPIED_FOR_MS = 2000;

/** The QR PNG of a business; `attempt` busts the browser cache after a failure. */
export function qrImageUrl(businessId: number, attempt = 0): string {
  return `/api/business/GetQRCodeImage?id=${businessId}${attempt ? `&attempt=${attempt}` : ""}`;
}

/**
 * The base of the links the owner is shown: the one GET /api/site answered for this page, which is the base the
 * server's QR image encodes for the same address. The page's own origin only until that answer has come.
 */
export function linkBase(): string {
  return site.value?.publicUrl ?? window.location.origin;
}

/** When the link on the QR code only opens inside this network: says so plainly, how to fix it, and (admin) where. */
export function UnreachableLinkWarning({ className = "" }: { className?: string }) {
  useSignals();
  if (!site.value?.publicUrlPrivate) return null;
  return (
    <div className={`alert alert-warning link-warning ${className}`} role="status">
      <strong>{UNREACHABLE_LINK_WARNING}.</strong> {UNREACHABLE_LINK_FIX}
      {isAdmin.value && (
        <>
          {" "}
          <Link href={paths.settings}>Open Settings</Link>
        </>
      )}
    </div>
  );
}

/** An uploaded image path ("/uploads/x.png", or a full URL) as an <img> source. */
export function mediaUrl(path: string): string {
  return /^(https?:)?\/\//i.test(path) || path.startsWith("/") ? path : `/${path}`;
}


/** Logo image, or the initials when there is none (or it fails to load). */
export function BusinessBadge({ business, className = "" }: { business: PublicBusiness; className?: string }) {
  const [broken, setBroken] = useState(false);
  const logo = business.logoImagePath && !broken ? mediaUrl(business.logoImagePath) : null;
  return (
    <span className={`qr-badge ${className}`}>
      {logo ? (
        <img src={logo} alt={`${business.name} logo`} onError={() => setBroken(true)} />
      ) : (
        <span className="qr-initials" aria-hidden="true">
          {initials(business.name, 2)}
        </span>
      )}
    </span>
  );
}

/** The spec's QR modal: logo or initials, QR image, name, QR message; the link, copy and print when logged in. */
export function QrModal({ business, onClose }: { business: PublicBusiness; onClose: () => void }) {
  useSignals();
  const titleId = useId();
  const messageId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const linkRef = useRef<HTMLInputElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState<"loading" | "loaded" | "error">("loading");
  const [copied, setCopied] = useState(false);
  const loggedIn = isAuthenticated.value;
  const link = subscribeLink(linkBase(), business.id);
  const message = business.qrMessage?.trim() || DEFAULT_QR_MESSAGE;

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(t);
  }, [copied]);

  async function onCopy() {
    if (await copyText(link, linkRef.current)) setCopied(true);
  }

  function onPrint() {
    const win = window.open(paths.print(business.id), "_blank");
    // A blocked pop-up: print from this tab instead.
    if (!win) window.location.assign(paths.print(business.id));
  }

  function retry() {
    setStatus("loading");
    setAttempt((n) => n + 1);
  }

  return (
    <Dialog className="qr-modal" labelledBy={titleId} describedBy={messageId} initialFocus={closeRef} onClose={onClose}>
      <button ref={closeRef} type="button" className="modal-close qr-close" aria-label="Close" onClick={onClose}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
      </button>
      <div className="qr-head">
        <BusinessBadge business={business} />
        <div className="qr-head-text">
          <h2 id={titleId}>{business.name}</h2>
          {business.businessType?.name && <p className="qr-type">{business.businessType.name}</p>}
        </div>
      </div>

      <div className={`qr-frame${status === "error" || !business.isActive ? " is-error" : ""}`}>
        {!business.isActive ? (
          // The server answers 404 for an inactive business's QR image: asking for it (and "Try again") cannot help.
          <p className="qr-error" role="status">
            {QR_INACTIVE}
          </p>
        ) : status === "error" ? (
          <div className="qr-error" role="alert">
            <p>{QR_IMAGE_ERROR}</p>
            <button type="button" className="btn btn-secondary btn-sm" onClick={retry}>
              Try again
            </button>
          </div>
        ) : (
          <>
            {status === "loading" && <span className="spinner qr-spinner" aria-hidden="true" />}
            <img
              key={attempt}
              className={`qr-image${status === "loaded" ? " is-loaded" : ""}`}
              src={qrImageUrl(business.id, attempt)}
              alt={`QR code to subscribe to ${business.name}`}
              width={240}
              height={240}
              onLoad={() => setStatus("loaded")}
              onError={() => setStatus("error")}
            />
          </>
        )}
      </div>

      <p id={messageId} className="qr-message">
        {message}
      </p>

      {/* A visitor on a phone cannot scan the code on their own screen: the page it opens, one tap away (a page load:
          the server renders it). */}
      {business.isActive && (
        <a href={`${paths.subscribe(business.id)}&src=list`} className="btn btn-secondary btn-block qr-open">
          Open subscribe page
        </a>
      )}

      {loggedIn && !business.isActive && (
        <p className="qr-owner qr-inactive-note" role="note">
          {QR_INACTIVE_NO_LINK}
        </p>
      )}

      {loggedIn && business.isActive && (
        <div className="qr-owner">
          <UnreachableLinkWarning className="qr-warning" />
          <label className="qr-link-label" htmlFor={`${titleId}-link`}>
            Subscription link
          </label>
          <div className="qr-link-row">
            <input
              ref={linkRef}
              id={`${titleId}-link`}
              className="input qr-link"
              value={link}
              readOnly
              onFocus={(e) => e.currentTarget.select()}
            />
            <button type="button" className={`btn ${copied ? "btn-primary" : "btn-secondary"} qr-copy`} onClick={onCopy}>
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
          <span className="sr-only" role="status" aria-live="polite">
            {copied ? "Link copied to the clipboard" : ""}
          </span>
          <button type="button" className="btn btn-primary btn-block btn-lg qr-print" onClick={onPrint}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path
                d="M7 9V3h10v6M7 17H5a2 2 0 0 1-2-2v-4a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2h-2M7 14h10v7H7z"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinejoin="round"
              />
            </svg>
            Print QR Code
          </button>
        </div>
      )}
    </Dialog>
  );
}
