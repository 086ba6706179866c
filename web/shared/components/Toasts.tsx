import { useSignals } from "@preact/signals-react/runtime";
import { removeToast, toasts } from "../state/toasts.ts";

const ICONS = { success: "✓", error: "!", warning: "!", info: "i" } as const;

export function Toasts() {
  useSignals();
  return (
    <div className="toasts" aria-live="polite">
      {toasts.value.map((t) => (
        <div key={t.id} className={`toast toast-${t.type}`} role={t.type === "error" ? "alert" : "status"}>
          <span className="toast-icon" aria-hidden="true">
            {ICONS[t.type]}
          </span>
          <div className="toast-body">
            <strong className="toast-title">{t.title}</strong>
            <p className="toast-message">{t.message}</p>
          </div>
          <button type="button" className="toast-close" aria-label="Close notification" onClick={() => removeToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
