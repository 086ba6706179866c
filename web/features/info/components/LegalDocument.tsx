import type { ReactNode } from "react";
import { isoDay, longDate } from "../../../../src/schemas/long-date.ts";
import "../../../shared/styles/legal.css";

export type LegalSection = { title: string; body: ReactNode };

/** "Last updated" line: today's date as a US English long date ("March 5, 2031"), machine-readable in <time>. */
export function LastUpdated() {
  const today = new Date();
  return (
    <p className="legal-updated">
      Last updated: <time dateTime={isoDay(today)}>{longDate(today)}</time>
    </p>
  );
}

function Contents({ slug, sections }: { slug: string; sections: LegalSection[] }) {
  return (
    <ol className="legal-toc-list">
      {sections.map((s, i) => (
        <li key={s.title}>
          <a href={`#${slug}-${i + 1}`}>{s.title}</a>
        </li>
      ))}
    </ol>
  );
}

/**
 * A numbered legal document (Terms, Privacy): title, date line, introduction, table of contents (a sticky
 * sidebar on wide screens, a collapsible list on phones) and the sections, numbered from 1.
 */
export function LegalDocument({
  slug,
  title,
  intro,
  sections,
}: {
  slug: string;
  title: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <div className="mk container page legal">
      <header className="legal-header">
        <h1>{title}</h1>
        <LastUpdated />
        <div className="legal-intro">{intro}</div>
      </header>
      <div className="legal-layout">
        <nav className="legal-toc legal-toc-side" aria-label="Contents">
          <p className="legal-toc-title">Contents</p>
          <Contents slug={slug} sections={sections} />
        </nav>
        <details className="legal-toc legal-toc-fold">
          <summary>Contents ({sections.length} sections)</summary>
          <Contents slug={slug} sections={sections} />
        </details>
        <article className="prose legal-body">
          {sections.map((s, i) => (
            <section key={s.title} id={`${slug}-${i + 1}`} className="legal-section" aria-labelledby={`${slug}-${i + 1}-title`}>
              <h2 id={`${slug}-${i + 1}-title`}>
                <span className="legal-number">{`${i + 1}.`}</span> {s.title}
              </h2>
              {s.body}
            </section>
          ))}
        </article>
      </div>
    </div>
  );
}
