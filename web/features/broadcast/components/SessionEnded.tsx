import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { loginReturningTo, paths } from "../../../shared/paths.ts";
import { clearSession } from "../../../shared/state/session.ts";
import { type KeptDraft, keepDraft } from "../kept-draft.ts";

export const SESSION_ENDED_TEXT = "Your session has ended, so nothing was sent. Sign in again: your message will be here when you come back.";
export const DRAFT_BACK = "Your message is back, as you left it. Check it and send it when you are ready.";
export const IMAGE_AGAIN = "Choose the image again: it could not be kept while you signed in.";

/** Shown in place of a dead end when the server answered 401 to Send: keeps the draft, then opens Login. */
export function SessionEndedNotice({ businessId, draft }: { businessId: string; draft: () => KeptDraft }) {
  const [, navigate] = useLocation();
  const button = useRef<HTMLButtonElement>(null);
  // Send is far down the form on a phone: the way back is brought into view (and focus) where the owner is.
  useEffect(() => button.current?.focus(), []);
  function signInAgain() {
    keepDraft(businessId, draft());
    // Login brings the owner back here (?next=), where the kept draft is put back on the form.
    navigate(loginReturningTo(paths.broadcast(businessId)));
    clearSession();
  }
  return (
    <div className="alert alert-warning bc-session-ended" role="alert">
      <p>{SESSION_ENDED_TEXT}</p>
      <button ref={button} type="button" className="btn btn-primary btn-sm" onClick={signInAgain}>
        Sign in again
      </button>
    </div>
  );
}

/** After signing in again: the draft is back (and the image, if there was one, must be chosen again). */
export function DraftRestoredNotice({ hadImage }: { hadImage: boolean }) {
  return (
    <div className="alert alert-info bc-draft-back" role="status">
      {DRAFT_BACK}
      {hadImage && ` ${IMAGE_AGAIN}`}
    </div>
  );
}
