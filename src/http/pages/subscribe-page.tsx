/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";
import { CHANNEL_CHOICES } from "../../schemas/channel-choice.ts";
import { CONSENT_LEGAL, consentText } from "../../schemas/consent.ts";
import { CONTACT_PREFERENCES, type ContactPreference } from "../../schemas/customers.ts";
import { SITE_DESCRIPTION, subscribeDescription } from "../../schemas/page-descriptions.ts";
import type { PublicBusiness } from "../../schemas/businesses.ts";
import { initials, textToJoinLine } from "../../schemas/poster-text.ts";
import { programPath } from "../../schemas/program-paths.ts";
import type { PublicSource } from "../../schemas/subscriptions.ts";
import { type TypedReach, typedWhatsAppReach, WHATSAPP_SMS_INSTEAD } from "../../schemas/whatsapp-reach.ts";

// The subscribe page a poster's QR code opens, rendered on the server: a phone on one bar of signal gets the business,
// the form and the consent words in the first answer (CSS inlined, no app bundle), and the form posts without
// JavaScript. web/subscribe/enhance.ts takes the form over when its small script arrives. The class names are the
// app's (web/styles), so the page looks like the rest of the product.

export const SUBSCRIBE_NOT_FOUND_TITLE = "Business not found";
export const SUBSCRIBE_NOT_FOUND_TEXT = "This subscription link is not valid, or the business is no longer taking subscribers.";
export const SUBSCRIBED_TITLE = "You're subscribed!";

/** What the page shell needs besides its content: the brand, and the assets of the build (absent in API tests). */
export interface PageShell {
  brand: string;
  /** The page's stylesheet, inlined. */
  css: string;
  /** The enhancement script (a module), inlined at the end of the body (allowed by its hash in the CSP); null in API tests. */
  script: string | null;
  /** The SMS sender number people text a business's join keyword to; none: no keyword line. */
  smsNumber?: string | null;
}

/** What the form shows: the values typed so far and, after a refused post, why. */
export interface FormState {
  phone: string;
  contactPreference: ContactPreference | null;
  fields: Record<string, string>;
  alert: string | null;
}

export const EMPTY_FORM: FormState = { phone: "", contactPreference: null, fields: {}, alert: null };

export function imageUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  return /^https?:\/\//i.test(path) || path.startsWith("/") ? path : `/uploads/${path}`;
}

function Document({ shell, title, description, children }: { shell: PageShell; title: string; description: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <meta name="description" content={description} />
        <title>{title}</title>
        <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%230f766e'/%3E%3Ccircle cx='11' cy='21' r='3' fill='white'/%3E%3C/svg%3E" />
        {/* The build's own stylesheet, as is: escaped text would break its child selectors (a > b). */}
        {shell.css && <style dangerouslySetInnerHTML={{ __html: shell.css }} />}
      </head>
      <body>
        <div class="app">
          <header class="navbar">
            <div class="container navbar-inner">
              <a href="/" class="brand" aria-label={`${shell.brand} home`}>
                <span class="logo">
                  <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
                    <rect width="32" height="32" rx="8" fill="var(--brand)" />
                    <circle cx="11" cy="21" r="3" fill="#fff" />
                    <path d="M9 13a10 10 0 0 1 10 10" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" />
                    <path d="M9 7a16 16 0 0 1 16 16" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" opacity=".6" />
                  </svg>
                  <span>{shell.brand}</span>
                </span>
              </a>
            </div>
          </header>
          <main class="main" id="main">
            {children}
          </main>
        </div>
        {shell.script && <script type="module" dangerouslySetInnerHTML={{ __html: shell.script }} />}
      </body>
    </html>
  );
}

export function BusinessMark({ business, size }: { business: PublicBusiness; size: "lg" | "sm" }) {
  const logo = imageUrl(business.logoImagePath);
  return (
    <span class={`sub-mark sub-mark-${size}`} aria-hidden="true">
      {logo ? <img src={logo} alt="" /> : <span>{initials(business.name)}</span>}
    </span>
  );
}

function ChannelCard({ kind, checked, disabled }: { kind: ContactPreference; checked: boolean; disabled: boolean }) {
  const choice = CHANNEL_CHOICES[kind];
  return (
    <label class="pref-card">
      <input type="radio" name="contactPreference" value={kind} checked={checked} disabled={disabled} />
      <svg class="pref-icon" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
        {choice.iconPaths.map((d) => (
          <path d={d} />
        ))}
      </svg>
      <span class="pref-text">
        <span class="pref-title">{choice.title}</span>
        <span class="pref-hint">{choice.hint}</span>
      </span>
      <span class="pref-check" aria-hidden="true" />
    </label>
  );
}

/** The consent words as stored, the last sentence's two names linked; enhance.ts rewrites the lead per channel. */
function ConsentLine({ business, pref }: { business: PublicBusiness; pref: ContactPreference | null }) {
  const text = consentText(business, pref);
  return (
    <p class="sub-consent" data-testid="consent">
      <span class="sub-consent-lead">{text.slice(0, -CONSENT_LEGAL.length)}</span>
      See our <a href="/terms">Terms</a> and <a href="/privacy">Privacy Policy</a>.
    </p>
  );
}

function SubscribeForm({ business, source, xsrf, form, reach, smsNumber }: { business: PublicBusiness; source: PublicSource; xsrf: string; form: FormState; reach: TypedReach; smsNumber?: string | null }) {
  const join = textToJoinLine(business.keyword, smsNumber);
  const phoneError = form.fields.phone;
  const prefError = form.fields.contactPreference;
  // A number WhatsApp promotions cannot reach: SMS is chosen, and the note says why (enhance.ts does the same as it is typed).
  const smsOnly = typedWhatsAppReach(form.phone, reach) === false;
  const pref = smsOnly ? "SMS" : form.contactPreference;
  const action = `/subscribe?id=${business.id}${source === "list" ? "&src=list" : ""}`;
  const sample = imageUrl(business.sampleImagePath);
  return (
    <section class="sub-screen">
      <div class="sub-wrap sub-grid">
        <div class="sub-info">
          <header class="sub-hero">
            <BusinessMark business={business} size="lg" />
            <div class="sub-hero-text">
              <p class="sub-eyebrow">{business.businessType?.name ?? "Local business"}</p>
              <h1>{business.name}</h1>
              <p class="sub-address">{business.address}</p>
            </div>
          </header>
          <article class="sub-offer">
            {sample && <img class="sub-offer-img" src={sample} alt={business.sampleProductText} width="480" height="270" />}
            <div class="sub-offer-body">
              <span class="sub-offer-tag">Sample offer</span>
              <p>{business.sampleProductText}</p>
            </div>
          </article>
        </div>
        <div class="sub-side">
          <form
            class="sub-card sub-form"
            method="post"
            action={action}
            novalidate
            aria-label={`Subscribe to ${business.name}`}
            data-business-id={String(business.id)}
            data-name={business.name}
            data-per-week={String(business.messagesPerWeek)}
            data-source={source}
            data-cc={reach.callingCode}
            data-wa-areas={reach.reachableAreaCodes.join(" ")}
          >
            <input type="hidden" name="_xsrf" value={xsrf} />
            <h2>Get deals on your phone</h2>
            <p class="sub-lead">Promotions, offers, flash sales and events from {business.name}, straight to your phone.</p>
            {form.alert && (
              <div class="alert alert-error" role="alert">
                {form.alert}
              </div>
            )}
            <div class={`field${phoneError ? " has-error" : ""}`}>
              <label for="sub-phone">Phone number</label>
              <input
                id="sub-phone"
                class="input"
                type="tel"
                inputmode="tel"
                name="phone"
                autocomplete="tel"
                placeholder="(415) 555-0134"
                value={form.phone}
                aria-invalid={phoneError ? "true" : "false"}
                aria-describedby={phoneError ? "sub-phone-hint sub-phone-error" : "sub-phone-hint"}
              />
              <div id="sub-phone-hint" class="field-hint">
                We'll only use it for these notifications.
              </div>
              {phoneError && (
                <div id="sub-phone-error" class="field-error" role="alert">
                  {phoneError}
                </div>
              )}
            </div>
            <fieldset class={`field pref-field${prefError ? " has-error" : ""}`} aria-describedby={prefError ? "sub-pref-error" : undefined}>
              <legend>Send my deals by</legend>
              <div class="pref-cards" role="radiogroup" aria-invalid={prefError ? "true" : "false"}>
                {CONTACT_PREFERENCES.map((p) => (
                  <ChannelCard kind={p} checked={pref === p} disabled={smsOnly && p === "WhatsApp"} />
                ))}
              </div>
              <p id="sub-pref-note" class="pref-note" hidden={!smsOnly}>
                {WHATSAPP_SMS_INSTEAD}
              </p>
              {prefError && (
                <div id="sub-pref-error" class="field-error" role="alert">
                  {prefError}
                </div>
              )}
            </fieldset>
            <ConsentLine business={business} pref={pref} />
            <button type="submit" class="btn btn-primary btn-block btn-lg sub-submit">
              Subscribe
            </button>
          </form>
          {join && (
            <p class="sub-footnote sub-join" data-testid="join-keyword">
              {join}
            </p>
          )}
          <p class="sub-footnote">
            Free to join · Your number is never shared · <a href="/faq">FAQ</a> · <a href={programPath(business.id)}>Program details</a>
          </p>
        </div>
      </div>
      <template id="sub-success">
        <SuccessCard business={business} message="" />
      </template>
    </section>
  );
}

function SuccessCard({ business, message }: { business: PublicBusiness; message: string }) {
  return (
    <div class="sub-wrap">
      <div class="sub-card sub-success" role="status">
        <span class="sub-success-icon" aria-hidden="true">
          <svg width="34" height="34" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" stroke-linejoin="round">
            <path d="M5 12.5l4.5 4.5L19 7.5" />
          </svg>
        </span>
        <h1 tabindex={-1}>{SUBSCRIBED_TITLE}</h1>
        <p class="sub-success-message">{message}</p>
        <div class="sub-success-business">
          <BusinessMark business={business} size="sm" />
          <span>{business.name}</span>
        </div>
        <p class="sub-fineprint">Reply STOP at any time to unsubscribe.</p>
      </div>
    </div>
  );
}

/** A whole page in the subscribe page's shell (the program page uses it too); `description`: its meta description. */
export const renderPage = (shell: PageShell, title: string, body: Child, description = SITE_DESCRIPTION) =>
  `<!doctype html>${(<Document shell={shell} title={title} description={description}>{body}</Document>).toString()}`;
const render = (shell: PageShell, body: Child, description?: string) => renderPage(shell, `Subscribe · ${shell.brand}`, body, description);

export function subscribeFormPage(shell: PageShell, business: PublicBusiness, source: PublicSource, xsrf: string, form: FormState, reach: TypedReach): string {
  return render(shell, <SubscribeForm business={business} source={source} xsrf={xsrf} form={form} reach={reach} smsNumber={shell.smsNumber} />, subscribeDescription(business.name));
}

export function subscribedPage(shell: PageShell, business: PublicBusiness, message: string): string {
  return render(
    shell,
    <section class="sub-screen">
      <SuccessCard business={business} message={message} />
    </section>,
  );
}

/** The card of a page with nothing to show (an unknown business, a dead link): a "?", the title and what to do. */
export function NotFoundCard({ title, children }: { title: string; children: Child }) {
  return (
    <section class="sub-screen">
      <div class="sub-wrap">
        <div class="sub-card sub-notfound">
          <span class="sub-notfound-icon" aria-hidden="true">
            ?
          </span>
          <h1>{title}</h1>
          {children}
        </div>
      </div>
    </section>
  );
}

export function notFoundPage(shell: PageShell): string {
  return render(
    shell,
    <NotFoundCard title={SUBSCRIBE_NOT_FOUND_TITLE}>
      <p>{SUBSCRIBE_NOT_FOUND_TEXT}</p>
      <a href="/businesses" class="btn btn-primary btn-block btn-lg">
        Browse local businesses
      </a>
    </NotFoundCard>,
  );
}
