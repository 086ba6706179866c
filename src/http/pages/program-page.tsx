/** @jsxImportSource hono/jsx */
import type { PublicBusiness } from "../../schemas/businesses.ts";
import { programDescription } from "../../schemas/page-descriptions.ts";
import { displayNumber, subscribeLink } from "../../schemas/poster-text.ts";
import { programFacts } from "../../schemas/program-facts.ts";
import { programPosterPath } from "../../schemas/program-paths.ts";
import { BusinessMark, type PageShell, renderPage } from "./subscribe-page.tsx";

// The public program page (/program?id=N, issue 23): what a carrier's reviewer must see without a login, in the words
// people really get (src/schemas/program-facts.ts): how to join, the consent text, the frequency, rates, STOP and
// HELP, the terms and privacy pages and the confirmation text. Rendered here like the subscribe page, in its shell.

export interface ProgramPageLinks {
  /** The saved public URL, for the subscribe link people are told to open; null: the link stays relative. */
  publicUrl: string | null;
}

function Fact({ id, label, children }: { id: string; label: string; children: unknown }) {
  return (
    <section class="prog-fact" aria-labelledby={`prog-${id}`}>
      <h2 id={`prog-${id}`}>{label}</h2>
      <div data-testid={`program-${id}`}>{children}</div>
    </section>
  );
}

export function programPage(shell: PageShell, business: PublicBusiness, links: ProgramPageLinks): string {
  const facts = programFacts(business);
  const subscribeUrl = subscribeLink(links.publicUrl ?? "", business.id);
  const poster = programPosterPath(business.id);
  const joinNumber = business.keyword && shell.smsNumber ? displayNumber(shell.smsNumber) : null;
  const body = (
    <section class="sub-screen">
      <div class="sub-wrap prog-wrap">
        <header class="sub-hero">
          <BusinessMark business={business} size="lg" />
          <div class="sub-hero-text">
            <p class="sub-eyebrow">Text message program</p>
            <h1 data-testid="program-name">{business.name}</h1>
            <p class="sub-address" data-testid="program-address">
              {business.address}
            </p>
          </div>
        </header>
        <div class="sub-card prog-card">
          <Fact id="join" label="How to join">
            <p>
              Scan the QR code on the poster in our shop, or open <a href={subscribeUrl} data-testid="program-subscribe-link">{subscribeUrl}</a>, type your mobile number and
              press Subscribe. Nothing is pre-checked, and you never have to join to buy.
            </p>
            {joinNumber && (
              <p data-testid="program-keyword">
                Or text {business.keyword} to {joinNumber}: a text of just that word, in any case, subscribes the number it comes from, and
                the confirmation below follows.
              </p>
            )}
            <div class="prog-join">
              <a href={poster} class="prog-poster" aria-label={`The poster of ${business.name} (PDF)`}>
                <img src={`/api/business/GetQRCodeImage?id=${business.id}`} alt={`QR code that opens ${subscribeUrl}`} width="160" height="160" />
              </a>
              <p class="prog-poster-text">
                The poster's QR code opens the subscribe page. <a href={poster}>See the poster (PDF)</a>.
              </p>
            </div>
          </Fact>
          <Fact id="consent" label="What people agree to at sign-up">
            <blockquote class="prog-quote">{facts.consent}</blockquote>
          </Fact>
          <Fact id="frequency" label="How often">
            <p>{facts.frequency}.</p>
          </Fact>
          <Fact id="disclosure" label="Rates, STOP and HELP">
            <p>{facts.disclosure}</p>
            <p class="sub-fineprint">Reply STOP to any message from {business.name} to stop them all; reply HELP for help{business.phone ? `, or call ${business.phone}` : ""}.</p>
          </Fact>
          <Fact id="confirmation" label="The text people receive when they join">
            <blockquote class="prog-quote">{facts.confirmation}</blockquote>
          </Fact>
          <p class="prog-legal">
            <a href="/terms">Terms of Service</a> · <a href="/privacy">Privacy Policy</a> · <a href={subscribeUrl}>Subscribe</a>
          </p>
        </div>
      </div>
    </section>
  );
  return renderPage(shell, `${business.name} · text message program · ${shell.brand}`, body, programDescription(business.name));
}
