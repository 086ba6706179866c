import { useEffect, useState } from "react";
import { customerApi } from "../api/customers.ts";

/** Suggestions shown while typing: a handful, never the whole list (an install may have thousands of subscribers). */
export const SUGGESTIONS = 5;
/** Digits typed before the server is asked (fewer would match nearly everyone). */
export const MIN_DIGITS = 3;
const TYPING_PAUSE_MS = 250;

/**
 * A phone field that suggests the caller's customers whose number contains what was typed (the paged ListCustomers,
 * a few rows at a time). Picking a suggestion fills the field; any number can still be typed in full.
 */
export function CustomerNumberSearch({ id, value, onChange }: { id: string; value: string; onChange: (phone: string) => void }) {
  const [found, setFound] = useState<string[]>([]);
  const [picked, setPicked] = useState(false);
  const digits = value.replace(/\D/g, "");

  useEffect(() => {
    if (picked || digits.length < MIN_DIGITS) {
      setFound([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      customerApi
        .page({ q: digits, businessId: "", status: "" }, null, SUGGESTIONS)
        .then((page) => live && setFound([...new Set(page.items.map((c) => c.phone))]))
        // A helper for typing: without it the field still takes a full number, so a failure is only logged.
        .catch((e: unknown) => console.error("Error looking up customers:", e));
    }, TYPING_PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [digits, picked]);

  return (
    <div className="field customer-number-search">
      <label htmlFor={id}>From</label>
      <input
        id={id}
        className="input"
        type="search"
        inputMode="tel"
        autoComplete="off"
        placeholder="Type digits of a customer's number"
        aria-describedby={`${id}-hint`}
        value={value}
        onChange={(e) => {
          setPicked(false);
          onChange(e.currentTarget.value);
        }}
      />
      <div id={`${id}-hint`} className="field-hint">
        A customer's number: type {MIN_DIGITS} or more digits to find one, or any full number.
      </div>
      {found.length > 0 && (
        <ul className="customer-number-results" aria-label="Matching customers">
          {found.map((phone) => (
            <li key={phone}>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => {
                  setPicked(true);
                  onChange(phone);
                }}
              >
                {phone}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
