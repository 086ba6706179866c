import type { KeyboardEvent } from "react";

/**
 * A key handler for a field with its own button inside the broadcast form (the phone number, the code): Enter runs
 * `action` and must not send the broadcast the form around it holds.
 */
export function onEnter(action: () => void): (e: KeyboardEvent<HTMLInputElement>) => void {
  return (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      action();
    }
  };
}
