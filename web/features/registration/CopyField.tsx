import { useEffect, useRef, useState } from "react";
import { copyText } from "../../shared/clipboard.ts";

const COPIED_FOR_MS = 2000;

/** One field of a form to fill elsewhere: its label, its value as it will be pasted, and Copy. */
export function CopyField({ label, name, value, missing }: { label: string; name: string; value: string | null; missing?: string }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(t);
  }, [copied]);
  const id = `kit-${name}`;
  return (
    <div className="kit-field" data-field={name}>
      <div className="kit-field-head">
        <label htmlFor={id}>{label}</label>
        <code className="kit-name">{name}</code>
      </div>
      {value === null ? (
        <p className="kit-missing" role="status">
          {missing ?? "Missing"}
        </p>
      ) : (
        <div className="kit-value-row">
          <textarea id={id} ref={ref} className="input kit-value" readOnly value={value} rows={Math.min(8, Math.max(1, Math.ceil(value.length / 70)))} />
          <button type="button" className={`btn btn-sm ${copied ? "btn-primary" : "btn-secondary"}`} aria-label={`Copy ${label}`} onClick={async () => setCopied(await copyText(value, ref.current))}>
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      )}
    </div>
  );
}
