import { useEffect, useState } from "react";
import type { SettingsView } from "../../../src/schemas/settings.ts";
import { ListLoadFailed } from "../../shared/components/ListPage.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { settingsApi } from "./api.ts";
import { SettingsForm } from "./SettingsForm.tsx";
import { WhatsAppTemplates } from "./WhatsAppTemplates.tsx";
import "../../shared/styles/settings.css";

/** /settings (admin): the public address, brand, Twilio and email settings. */
export function SettingsPage() {
  const [view, setView] = useState<SettingsView | null>(null);
  const [failed, setFailed] = useState(false);
  // Bumped after each save: the form starts over from the saved values (and its submit is ready again).
  const [version, setVersion] = useState(0);

  function load() {
    setFailed(false);
    settingsApi
      .get()
      .then(setView)
      .catch((err) => {
        console.error("Error loading settings:", err);
        setFailed(true);
      });
  }
  useEffect(load, []);

  return (
    <section className="container page settings-page">
      <header className="page-header">
        <div>
          <h1>Settings</h1>
          <p className="page-subtitle">How this server presents itself and sends messages. A setting given by the server's environment is shown locked.</p>
        </div>
      </header>
      {failed ? (
        <ListLoadFailed failure={{ what: "settings", retry: load }} />
      ) : view === null ? (
        <Spinner label="Loading settings..." />
      ) : (
        <SettingsForm
          key={version}
          view={view}
          onSaved={(next) => {
            setView(next);
            setVersion((n) => n + 1);
          }}
        />
      )}
      {view !== null && <WhatsAppTemplates />}
    </section>
  );
}
