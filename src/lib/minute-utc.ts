/** "2026-11-23 19:40 UTC": when something was seen, to the minute (the checklist's lines and `nearcast doctor`). */
export function minuteUtc(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}
