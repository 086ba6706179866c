import { useEffect, useState } from "react";

/** How long typing may pause before a search runs. */
export const SEARCH_DELAY_MS = 250;

/** A search field that reports its text once typing pauses (one request per pause, not per key). */
export function SearchBox({ label, onSearch, className = "" }: { label: string; onSearch: (text: string) => void; className?: string }) {
  const [text, setText] = useState("");
  useEffect(() => {
    const t = setTimeout(() => onSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
    // onSearch is the page's state setter (stable).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  return (
    <div className={`list-search ${className}`.trim()} role="search">
      <input className="input" type="search" aria-label={label} placeholder={label} value={text} onChange={(e) => setText(e.target.value)} />
    </div>
  );
}
