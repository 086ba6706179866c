import { useSignals } from "@preact/signals-react/runtime";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { ImportSummary } from "../../../src/schemas/customer-import.ts";
import { ApiError } from "../../shared/api/client.ts";
import { importCustomersCsv } from "./api/customers.ts";
import { Dialog } from "../../shared/components/Dialog.tsx";
import { isAdmin } from "../../shared/state/session.ts";
import { paths } from "../../shared/paths.ts";
import { Link } from "wouter";
import { type BusinessOption, loadBusinessOptions } from "./CustomerForm.tsx";

export const CHOOSE_FILE = "Choose a CSV file to import.";
export const CHOOSE_BUSINESS = "Choose the business to add them to.";
export const CREATE_BUSINESS_FIRST = "Create a business first: imported people join one of your businesses.";
export const IMPORT_FAILED = "The import could not be finished. Rows written so far are kept; import the file again to complete it.";
/** How many rows of each list the summary shows (the rest are counted). */
export const LISTED_ROWS = 50;

const n = (x: number) => x.toLocaleString("en-US");
const rows = (x: number) => `${n(x)} row${x === 1 ? "" : "s"}`;

/** "3 added, 1 re-added, 2 already subscribed, 1 skipped, 2 invalid rows": the CLI's summary line. */
export function summaryText(s: ImportSummary): string {
  return `${n(s.added.length)} added, ${n(s.readded.length)} re-added, ${n(s.already.length)} already subscribed, ${n(s.skipped.length)} skipped, ${n(s.invalid.length)} invalid row${s.invalid.length === 1 ? "" : "s"}`;
}

/** 'Line 3: "555-12" (Please enter a valid phone number)': the refused value as the file held it, then why. */
export function invalidRowText(r: ImportSummary["invalid"][number]): string {
  return `Line ${r.line}: ${r.value.trim() ? JSON.stringify(r.value) : "(empty)"} (${r.message})`;
}

function RowList({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <section className="imp-list">
      <h3>{title}</h3>
      <ul>
        {items.slice(0, LISTED_ROWS).map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
      {items.length > LISTED_ROWS && <p className="muted">and {rows(items.length - LISTED_ROWS)} more</p>}
    </section>
  );
}

type Phase = { kind: "form" } | { kind: "running"; done: number; total: number } | { kind: "done"; summary: ImportSummary };

/**
 * The Customers screen's CSV import: a business, a file (header phone,contactPreference), an optional welcome text;
 * then the rows written so far, and the summary the CLI prints, with the line numbers of what was left out.
 * `onImported` runs once rows may have been written (the list behind reloads).
 */
export function ImportCustomersDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  useSignals();
  const titleId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [businesses, setBusinesses] = useState<BusinessOption[] | null>(null);
  const [businessId, setBusinessId] = useState("");
  const [welcome, setWelcome] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "form" });
  const admin = isAdmin.value;

  useEffect(() => {
    let live = true;
    loadBusinessOptions(admin).then(
      (list) => {
        if (!live) return;
        setBusinesses(list);
        if (list.length === 1) setBusinessId(String(list[0]!.id));
      },
      (err) => {
        if (!live) return;
        console.error("Failed to load businesses", err);
        // Unknown is not none: the picker stays (empty) rather than telling the owner to create one.
        setBusinesses((old) => old ?? []);
      },
    );
    return () => {
      live = false;
    };
  }, [admin]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!businessId) return setError(CHOOSE_BUSINESS);
    if (!file) return setError(CHOOSE_FILE);
    setError(null);
    setPhase({ kind: "running", done: 0, total: 0 });
    try {
      const summary = await importCustomersCsv(businessId, file, welcome, (p) => setPhase({ kind: "running", ...p }));
      setPhase({ kind: "done", summary });
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      // A refusal (4xx) wrote nothing and says why; anything after the upload began may have written rows.
      setError(status >= 400 && status < 500 ? (err as ApiError).message : IMPORT_FAILED);
      setPhase({ kind: "form" });
      if (status === 0 || status >= 500) onImported();
      return;
    }
    onImported();
  }

  const running = phase.kind === "running";
  const noBusiness = businesses !== null && businesses.length === 0;
  return (
    <Dialog className="imp-modal" labelledBy={titleId} initialFocus={fileRef} onClose={running ? () => {} : onClose}>
      <header className="imp-header">
        <h2 id={titleId}>Import customers</h2>
      </header>
      {phase.kind === "done" ? (
        <div className="imp-body" role="status">
          <p className="imp-summary" data-testid="import-summary">
            {summaryText(phase.summary)}
            {phase.summary.welcomed !== undefined && ` · ${n(phase.summary.welcomed)} welcome text(s) queued`}
          </p>
          <RowList title="Invalid rows (not imported)" items={phase.summary.invalid.map(invalidRowText)} />
          <RowList title="Skipped" items={phase.summary.skipped.map((r) => `Line ${r.line}: ${r.phone} ${r.reason}`)} />
          <div className="form-actions">
            <button type="button" className="btn btn-primary" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <form className="imp-body" onSubmit={(e) => void onSubmit(e)} aria-busy={running}>
          {error && (
            <div className="alert alert-error" role="alert">
              {error}
            </div>
          )}
          {noBusiness ? (
            <div className="alert alert-info" role="status" data-testid="import-no-business">
              {CREATE_BUSINESS_FIRST}{" "}
              <Link href={paths.businessAdd} onClick={onClose}>
                Add your business
              </Link>
            </div>
          ) : (
            <div className="field">
              <label htmlFor="imp-business">Business</label>
              <select id="imp-business" className="input" value={businessId} disabled={running} onChange={(e) => setBusinessId(e.target.value)}>
                <option value="">Choose a business</option>
                {(businesses ?? []).map((b) => (
                  <option key={b.id} value={String(b.id)}>
                    {b.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="field">
            <label htmlFor="imp-file">CSV file</label>
            <input ref={fileRef} id="imp-file" className="input" type="file" accept=".csv,text/csv" disabled={running} aria-describedby="imp-file-hint" />
            <span id="imp-file-hint" className="field-hint">
              First line: phone,contactPreference (SMS or WhatsApp). Up to 5 MB.
            </span>
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={welcome} disabled={running} onChange={(e) => setWelcome(e.target.checked)} /> Send the people added a
            welcome text
          </label>
          {running && (
            <div className="imp-progress">
              <progress max={Math.max(1, phase.total)} value={phase.done} aria-label="Import progress" />
              <span data-testid="import-progress">{phase.total ? `${n(phase.done)} of ${rows(phase.total)} imported` : "Uploading..."}</span>
            </div>
          )}
          <div className="form-actions">
            <button type="button" className="btn btn-secondary" disabled={running} onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={running || noBusiness}>
              {running ? "Importing..." : "Import"}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
