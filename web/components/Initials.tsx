/** Up to `max` initials of a name, one per word ("Rosie's Corner Bakery", 2 -> "RC"); "?" for a name without letters. */
export function initials(name: string, max: number): string {
  const words = name.trim().split(/\s+/);
  const letters = words.map((w) => w.match(/[\p{L}\p{N}]/u)?.[0] ?? "").filter(Boolean);
  return letters.slice(0, max).join("").toLocaleUpperCase("en-US") || "?";
}

/** The initials of a name in a round badge (sized and coloured by the caller's class). */
export function Initials({ name, max, className = "" }: { name: string; max: number; className?: string }) {
  return (
    <span className={`initials ${className}`} aria-hidden="true">
      {initials(name, max)}
    </span>
  );
}
