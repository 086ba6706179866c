import { initials } from "../../../../src/schemas/poster-text.ts";

/** The initials of a name in a round badge (sized and coloured by the caller's class). */
export function Initials({ name, max, className = "" }: { name: string; max: number; className?: string }) {
  return (
    <span className={`initials ${className}`} aria-hidden="true">
      {initials(name, max)}
    </span>
  );
}
