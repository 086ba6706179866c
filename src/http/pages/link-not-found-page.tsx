/** @jsxImportSource hono/jsx */
import { NotFoundCard, type PageShell, renderPage } from "./subscribe-page.tsx";

// The answer to a short link that leads nowhere (GET /l/<code>, issue 25): a small page in the install's brand, in the
// subscribe page's shell, and never a redirect elsewhere (a mistyped code must not send anyone to someone's site).

export const LINK_NOT_FOUND_TITLE = "This link does not work";
export const LINK_NOT_FOUND_TEXT = "It may have been mistyped, or the offer it belonged to is over. Check the text you received.";

export function linkNotFoundPage(shell: PageShell): string {
  return renderPage(
    shell,
    `Link not found · ${shell.brand}`,
    <NotFoundCard title={LINK_NOT_FOUND_TITLE}>
      <p>{LINK_NOT_FOUND_TEXT}</p>
    </NotFoundCard>,
  );
}
