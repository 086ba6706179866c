import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { useLocation } from "wouter";
import { paths } from "../../../shared/paths.ts";
import { UNREACHABLE_LINK_FIX, UNREACHABLE_LINK_WARNING } from "../../../../src/schemas/public-url.ts";
import { ApiError } from "../../../shared/api/client.ts";
import { settingsApi } from "../api.ts";
import { isAdmin } from "../../../shared/state/session.ts";
import { loadSite, site } from "../../../shared/state/site.ts";
import "../../../shared/styles/setup.css";

/** localStorage: the address an admin said "Not now" to (asked again only at another address). */
export const OFFER_DISMISSED_KEY = "nearcast.publicUrlOffer.dismissed";
export const OFFER_SAVE_FAILED = "Could not save the public address. Please try again, or set it in Settings.";

function dismissedFor(): string | null {
  try {
    return localStorage.getItem(OFFER_DISMISSED_KEY);
  } catch {
    return null; // storage blocked: ask again next time, which is harmless
  }
}

/**
 * No public URL is saved (or set in the environment): links and QR codes use the address this page was opened at.
 * The first time an admin opens the UI, offers to keep that address as the server's public URL.
 */
export function PublicUrlOffer() {
  useSignals();
  const [location] = useLocation();
  const [dismissed, setDismissed] = useState(dismissedFor);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const info = site.value;
  // The address the server saw this page at (what the QR codes encode now).
  const origin = info?.publicUrl ?? "";
  // Not on the print page (it would be printed) nor on Settings, whose Public address section offers the same.
  const elsewhere = location.startsWith("/print/") || location === paths.settings;
  if (!isAdmin.value || info?.publicUrlSource !== "request" || dismissed === origin || elsewhere) return null;

  async function save() {
    setSaving(true);
    setError(null);
    try {
      await settingsApi.update({ publicUrl: origin });
      await loadSite();
    } catch (e) {
      setError(e instanceof ApiError && e.status === 400 ? e.message : OFFER_SAVE_FAILED);
    } finally {
      setSaving(false);
    }
  }

  function notNow() {
    try {
      localStorage.setItem(OFFER_DISMISSED_KEY, origin);
    } catch {
      // storage blocked: hidden for this visit only
    }
    setDismissed(origin);
  }

  return (
    <section className="container public-url-offer" aria-label="Public address">
      <div className="alert alert-info public-url-offer-box">
        <p>
          Links and QR codes use <strong>{origin}</strong>. Save it as this server's public address?
        </p>
        {info.publicUrlPrivate && (
          <p>
            <strong>{UNREACHABLE_LINK_WARNING}.</strong> {UNREACHABLE_LINK_FIX}
          </p>
        )}
        {error && (
          <p className="public-url-offer-error" role="alert">
            {error}
          </p>
        )}
        <div className="public-url-offer-actions">
          <button type="button" className="btn btn-primary btn-sm" onClick={save} disabled={saving}>
            {saving ? "Saving..." : "Save"}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={notNow} disabled={saving}>
            Not now
          </button>
        </div>
      </div>
    </section>
  );
}
