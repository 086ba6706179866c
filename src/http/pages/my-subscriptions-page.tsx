/** @jsxImportSource hono/jsx */
import type { MySubscription } from "../../services/my-subscriptions.ts";
import { MY_SUBSCRIPTIONS_PATH } from "../../services/my-subscriptions.ts";
import { NotFoundCard, type PageShell, renderPage } from "./subscribe-page.tsx";
import { lastDigits } from "../../schemas/masked-phone.ts";

// The person's own subscriptions page (/my-subscriptions?t=…, the link in a HELP reply), rendered on the server with
// the subscribe page's shell and stylesheet and no script: each button is a plain form that posts the link's token
// back, and the answer is a 303 to the page again showing the new state.

export const MY_SUBSCRIPTIONS_TITLE = "Your subscriptions";
export const LINK_EXPIRED_TITLE = "This link has expired";
export const LINK_UNKNOWN_TITLE = "This link is not valid";
export const NEW_LINK_HINT = "Text HELP to the number our messages come from, and we will reply with a new link.";
export const UNSUBSCRIBE_ALL = "Unsubscribe from all";

const CHANNEL_LABEL = { SMS: "Text (SMS)", WhatsApp: "WhatsApp" } as const;


function UnsubscribeForm({ token, target, label, kind }: { token: string; target: string; label: string; kind: "one" | "all" }) {
  return (
    <form method="post" action={MY_SUBSCRIPTIONS_PATH} class={`mysubs-form mysubs-form-${kind}`}>
      <input type="hidden" name="t" value={token} />
      <input type="hidden" name="business" value={target} />
      <button type="submit" class={kind === "all" ? "btn btn-block mysubs-all" : "btn mysubs-leave"}>
        {label}
      </button>
    </form>
  );
}

function Row({ sub, token }: { sub: MySubscription; token: string }) {
  return (
    <li class="mysubs-row" data-testid="mysubs-row">
      <div class="mysubs-text">
        <span class="mysubs-name">{sub.businessName}</span>
        <span class="mysubs-channel">{CHANNEL_LABEL[sub.channel]}</span>
      </div>
      {sub.subscribed ? (
        <UnsubscribeForm token={token} target={String(sub.businessId)} label="Unsubscribe" kind="one" />
      ) : (
        <span class="mysubs-left">Unsubscribed</span>
      )}
    </li>
  );
}

/** The list, with what the last post did ("left": a business's name, or every business). */
export function mySubscriptionsPage(shell: PageShell, view: { phone: string; subscriptions: MySubscription[]; token: string; notice: string | null }): string {
  const anySubscribed = view.subscriptions.some((s) => s.subscribed);
  return renderPage(
    { ...shell, script: null },
    MY_SUBSCRIPTIONS_TITLE,
    <section class="sub-screen">
      <div class="sub-wrap">
        <div class="sub-card mysubs">
          <h1>{MY_SUBSCRIPTIONS_TITLE}</h1>
          <p class="mysubs-lead">
            Messages to your number ending <span class="mysubs-number">{lastDigits(view.phone)}</span> from businesses on {shell.brand}.
          </p>
          {view.notice && (
            <div class="alert alert-success" role="status" data-testid="mysubs-notice">
              {view.notice}
            </div>
          )}
          {view.subscriptions.length === 0 ? (
            <p class="mysubs-empty">You are not subscribed to any business here.</p>
          ) : (
            <ul class="mysubs-list">
              {view.subscriptions.map((sub) => (
                <Row sub={sub} token={view.token} />
              ))}
            </ul>
          )}
          {anySubscribed && <UnsubscribeForm token={view.token} target="all" label={UNSUBSCRIBE_ALL} kind="all" />}
          <p class="sub-fineprint">Unsubscribing from all is the same as texting STOP; text START to get them back.</p>
        </div>
      </div>
    </section>,
  );
}

/** An expired (410) or unknown (404) link: what happened and how to get a new one. */
export function linkRefusedPage(shell: PageShell, state: "expired" | "unknown"): string {
  const title = state === "expired" ? LINK_EXPIRED_TITLE : LINK_UNKNOWN_TITLE;
  return renderPage(
    { ...shell, script: null },
    title,
    <NotFoundCard title={title}>
      <p>{state === "expired" ? "Links to your subscriptions work for 30 days." : "This link is incomplete or was changed."}</p>
      <p data-testid="new-link-hint">{NEW_LINK_HINT}</p>
    </NotFoundCard>,
  );
}
