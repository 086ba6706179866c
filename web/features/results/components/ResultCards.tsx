/** One headline number: its label, the number (or what is true instead, `wordy`), and the line under it. */
export interface Card {
  key: string;
  label: string;
  value: string;
  note?: string;
  /** A value that is a sentence, not a number (shown smaller). */
  wordy?: boolean;
}

/** Headline numbers as cards, each with the test id `<prefix>-<key>`. */
export function ResultCards({ cards, prefix = "card" }: { cards: Card[]; prefix?: string }) {
  return (
    <dl className="results-cards">
      {cards.map((c) => (
        <div key={c.key} className={`card results-card results-card-${c.key}`} data-testid={`${prefix}-${c.key}`}>
          <dt className="results-card-label">{c.label}</dt>
          <dd className={c.wordy ? "results-card-value results-card-words" : "results-card-value"}>{c.value}</dd>
          {c.note && <dd className="results-card-note">{c.note}</dd>}
        </div>
      ))}
    </dl>
  );
}
