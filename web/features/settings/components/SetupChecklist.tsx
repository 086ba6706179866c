import { useCallback, useEffect, useState } from "react";
import { Link } from "wouter";
import type { ChecklistItem, ChecklistStatus } from "../../../../src/schemas/checklist.ts";
import { settingsApi } from "../api.ts";
import { ListLoadFailed } from "../../../shared/components/ListPage.tsx";
import "../../../shared/styles/setup.css";

/** What each colour says, for those who cannot tell the dots apart. */
export const STATUS_LABEL: Record<ChecklistStatus, string> = { green: "Done", amber: "Check", red: "Fix" };

type State = { kind: "loading" } | { kind: "failed" } | { kind: "ready"; items: ChecklistItem[] };

/** The admin's setup checklist (GET /api/settings/Checklist; `nearcast doctor` prints the same lines). */
export function SetupChecklist() {
  const [state, setState] = useState<State>({ kind: "loading" });

  const load = useCallback(() => {
    let live = true;
    setState({ kind: "loading" });
    settingsApi
      .checklist()
      .then(({ items }) => live && setState({ kind: "ready", items }))
      .catch((e: unknown) => {
        console.error("Error loading the setup checklist:", e);
        if (live) setState({ kind: "failed" });
      });
    return () => {
      live = false;
    };
  }, []);

  useEffect(load, [load]);

  const done = state.kind === "ready" ? state.items.filter((i) => i.status === "green").length : 0;
  return (
    <section className="container setup-checklist" aria-labelledby="setup-checklist-title">
      <div className="card setup-checklist-card">
        <header className="setup-checklist-head">
          <h2 id="setup-checklist-title">Setup checklist</h2>
          {state.kind === "ready" && (
            <span className="setup-checklist-count">
              {done} of {state.items.length} done
            </span>
          )}
        </header>
        {state.kind === "loading" && (
          <p className="setup-checklist-loading" role="status">
            Checking this server...
          </p>
        )}
        {state.kind === "failed" && <ListLoadFailed failure={{ what: "the setup checklist", retry: load }} />}
        {state.kind === "ready" && (
          <ul className="setup-checklist-items">
            {state.items.map((item) => (
              <li key={item.id} className={`setup-item is-${item.status}`}>
                <span className={`setup-dot is-${item.status}`} aria-hidden="true" />
                <div className="setup-item-text">
                  <p className="setup-item-title">
                    {item.title}
                    <span className={`badge setup-badge is-${item.status}`}>{STATUS_LABEL[item.status]}</span>
                  </p>
                  <p className="setup-item-detail">{item.detail}</p>
                  {item.link && (
                    <Link href={item.link.href} className="setup-item-link">
                      {item.link.label}
                    </Link>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
