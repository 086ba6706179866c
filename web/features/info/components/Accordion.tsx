import { type ReactNode, useId, useState } from "react";
import { Icon } from "../../../shared/components/Icon.tsx";

export type AccordionItem = { id: string; title: string; content: ReactNode };

type Props = {
  items: AccordionItem[];
  /** Level of the heading wrapping each button, so the page's outline stays in order. */
  headingLevel?: 2 | 3 | 4;
  /** Ids of the items open at first render. */
  defaultOpen?: string[];
};

/**
 * WAI-ARIA accordion: each header is a real <button> inside a heading, with aria-expanded and aria-controls
 * pointing at its region. Items open and close independently.
 */
export function Accordion({ items, headingLevel = 3, defaultOpen = [] }: Props) {
  const prefix = useId();
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(defaultOpen));
  const Heading = `h${headingLevel}` as "h2" | "h3" | "h4";

  function toggle(id: string) {
    setOpen((old) => {
      const next = new Set(old);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <div className="accordion">
      {items.map((item) => {
        const expanded = open.has(item.id);
        const buttonId = `${prefix}-${item.id}-button`;
        const panelId = `${prefix}-${item.id}-panel`;
        return (
          <div key={item.id} className={`accordion-item${expanded ? " open" : ""}`}>
            <Heading className="accordion-heading">
              <button
                type="button"
                id={buttonId}
                className="accordion-button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => toggle(item.id)}
              >
                <span>{item.title}</span>
                <Icon name="chevron" size={20} className="accordion-chevron" />
              </button>
            </Heading>
            <div id={panelId} role="region" aria-labelledby={buttonId} className="accordion-panel" hidden={!expanded}>
              {item.content}
            </div>
          </div>
        );
      })}
    </div>
  );
}
