import { type ChangeEvent, useId, useRef } from "react";
import { SNIFF_BYTES, sniffImage } from "../../src/lib/image-sniff.ts";

export const MAX_IMAGE_BYTES = 5_242_880;
export const INVALID_IMAGE_FILE = "Please select a valid image file (JPG, PNG, GIF, BMP)";
export const IMAGE_FILE_TOO_LARGE = "File size cannot exceed 5MB";
const ACCEPT = "image/jpeg,image/png,image/gif,image/bmp,.jpg,.jpeg,.png,.gif,.bmp";

async function headOf(file: File): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  } catch {
    return null;
  }
}

/**
 * Why `file` cannot be uploaded, or null. Like the server it looks at the first bytes, not the name, so a page saved
 * as .png is caught before it is sent; browsers that cannot read the file fall back to its declared type.
 */
export async function checkImageFile(file: File): Promise<string | null> {
  if (file.size === 0) return INVALID_IMAGE_FILE;
  const head = await headOf(file);
  const ok = head ? sniffImage(head) !== null : /^image\/(jpeg|png|gif|bmp)$/.test(file.type);
  if (!ok) return INVALID_IMAGE_FILE;
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_FILE_TOO_LARGE;
  return null;
}

/** What one image slot of a form holds: the stored path, or a chosen file (with its preview) waiting to be uploaded. */
export interface ImageSlot {
  path: string | null;
  file: File | null;
  preview: string | null;
}

export const emptySlot = (path: string | null = null): ImageSlot => ({ path, file: null, preview: null });

interface ImagePickerProps {
  label: string;
  /** "logo" or "sample": names the input and test hooks. */
  name: string;
  slot: ImageSlot;
  required?: boolean;
  hint: string;
  error?: string;
  disabled?: boolean;
  /** A file the user picked (already checked: an invalid one comes with its error). */
  onChoose: (file: File, error: string | null) => void;
  onRemove: () => void;
  /** "square" for logos (shown round), "wide" for product photos. */
  shape: "square" | "wide";
}

/** Choose, preview, change and remove one image. The file itself is uploaded by the form on save. */
export function ImagePicker({ label, name, slot, required, hint, error, disabled, onChoose, onRemove, shape }: ImagePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const src = slot.preview ?? slot.path;
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ");

  async function onChange(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    // Clear the input so choosing the same file again still fires a change.
    e.target.value = "";
    if (!file) return;
    onChoose(file, await checkImageFile(file));
  }

  return (
    <div className={`field image-picker image-picker-${shape}${error ? " has-error" : ""}`} data-image={name}>
      <span className="image-picker-label" id={`${id}-label`}>
        {label}
        {required ? <span className="image-picker-req"> (required)</span> : <span className="image-picker-opt"> (optional)</span>}
      </span>
      <div className="image-picker-box">
        {src ? (
          <img className="image-picker-preview" src={src} alt={`${label} preview`} />
        ) : (
          <button
            type="button"
            className="image-picker-empty"
            onClick={() => input.current?.click()}
            disabled={disabled}
            aria-describedby={describedBy}
          >
            <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
              <rect x="3" y="3" width="18" height="18" rx="3" />
              <circle cx="9" cy="9" r="2" />
              <path d="m21 15-5-5L5 21" />
            </svg>
            <span>Choose {shape === "square" ? "logo" : "image"}</span>
          </button>
        )}
      </div>
      <input
        ref={input}
        id={id}
        className="sr-only"
        type="file"
        name={name}
        accept={ACCEPT}
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
        aria-invalid={!!error}
        tabIndex={-1}
        disabled={disabled}
        onChange={(e) => void onChange(e)}
      />
      {src && (
        <div className="image-picker-actions">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => input.current?.click()} disabled={disabled}>
            Change
          </button>
          <button type="button" className="btn btn-danger btn-sm" onClick={onRemove} disabled={disabled}>
            Remove
          </button>
        </div>
      )}
      {slot.file && <div className="image-picker-file">Selected: {slot.file.name}</div>}
      <div id={`${id}-hint`} className="field-hint">
        {hint}
      </div>
      {error && (
        <div id={`${id}-error`} className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
