import { useId, useRef, useState } from "react";

// The broadcast's optional image: choose, check (type and size, before anything is sent), confirm and preview.
// The object URL of the preview belongs to the page, which revokes it when it is replaced or the screen is left.

export const MAX_BROADCAST_IMAGE_BYTES = 5_242_880;
export const BROADCAST_IMAGE_HELP = "Supported formats: JPG, PNG, GIF, BMP. Maximum size: 5MB";
export const BROADCAST_IMAGE_TYPE_ERROR = "Invalid file type. Only image files are allowed.";
export const BROADCAST_IMAGE_SIZE_ERROR = "File size cannot exceed 5MB.";

const ACCEPT = "image/jpeg,image/png,image/gif,image/bmp,.jpg,.jpeg,.png,.gif,.bmp";
const IMAGE_TYPES = new Set(["image/jpeg", "image/jpg", "image/pjpeg", "image/png", "image/gif", "image/bmp", "image/x-bmp", "image/x-ms-bmp"]);
const IMAGE_EXTENSION = /\.(jpe?g|png|gif|bmp)$/i;

/** Why `file` cannot be attached, or null. A file without a declared type (some systems) is judged by its name. */
export function checkBroadcastImage(file: { name: string; type: string; size: number }): string | null {
  const type = file.type.toLowerCase();
  const typeOk = type ? IMAGE_TYPES.has(type) : IMAGE_EXTENSION.test(file.name);
  if (!typeOk || file.size === 0) return BROADCAST_IMAGE_TYPE_ERROR;
  if (file.size > MAX_BROADCAST_IMAGE_BYTES) return BROADCAST_IMAGE_SIZE_ERROR;
  return null;
}

/** 1.2 MB, 245 KB, 900 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

export interface ChosenImage {
  file: File;
  /** Object URL of the preview. */
  url: string;
}

interface ImageFieldProps {
  image: ChosenImage | null;
  error: string | null;
  disabled: boolean;
  onChoose: (file: File) => void;
  onRemove: () => void;
}

export function ImageField({ image, error, disabled, onChoose, onRemove }: ImageFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [broken, setBroken] = useState<string | null>(null);
  const describedBy = [`${id}-help`, error ? `${id}-error` : ""].filter(Boolean).join(" ");

  return (
    <div className={`field bc-image-field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>
        Image <span className="bc-optional">(optional)</span>
      </label>
      <div className="bc-image-row">
        <button type="button" className="btn btn-secondary bc-image-choose" onClick={() => input.current?.click()} disabled={disabled} aria-describedby={describedBy}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            <rect x="3" y="3" width="18" height="18" rx="3" />
            <circle cx="9" cy="9" r="2" />
            <path d="m21 15-5-5L5 21" />
          </svg>
          {image ? "Change image" : "Choose image"}
        </button>
        {image && (
          <button type="button" className="btn btn-ghost btn-sm bc-image-remove" onClick={onRemove} disabled={disabled}>
            Remove
          </button>
        )}
      </div>
      <input
        ref={input}
        id={id}
        className="sr-only"
        type="file"
        name="Image"
        accept={ACCEPT}
        tabIndex={-1}
        aria-describedby={describedBy}
        aria-invalid={!!error}
        disabled={disabled}
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Cleared so that choosing the same file again still fires a change.
          e.target.value = "";
          if (file) onChoose(file);
        }}
      />
      <div id={`${id}-help`} className="field-hint">
        {BROADCAST_IMAGE_HELP}
      </div>
      {error && (
        <div id={`${id}-error`} className="field-error" role="alert">
          {error}
        </div>
      )}
      {image && (
        <div className="bc-image-chosen">
          <p className="bc-image-confirm" role="status">
            <span className="bc-check" aria-hidden="true">
              ✓
            </span>
            Image selected: <strong>{image.file.name}</strong> <span className="muted">({formatBytes(image.file.size)})</span>
          </p>
          {broken !== image.url && (
            <img className="bc-image-thumb" src={image.url} alt={`Preview of ${image.file.name}`} onError={() => setBroken(image.url)} />
          )}
        </div>
      )}
    </div>
  );
}
