import { useId, useRef } from "react";
import { IMAGE_TOO_LARGE, INVALID_IMAGE } from "../../../src/schemas/texts.ts";
import { checkImageByContent } from "../image-file.ts";
import { FieldNotes, notesIds } from "./form.tsx";
import { ImageFileInput } from "./ImageFileInput.tsx";

/** Why `file` cannot be uploaded (by its first bytes, like the server), or null. */
export function checkImageFile(file: File): Promise<string | null> {
  return checkImageByContent(file, { invalid: INVALID_IMAGE, tooLarge: IMAGE_TOO_LARGE });
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
  const describedBy = notesIds(id, hint, error);

  async function choose(file: File) {
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
      <ImageFileInput
        ref={input}
        id={id}
        name={name}
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
        aria-invalid={!!error}
        disabled={disabled}
        onFile={(file) => void choose(file)}
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
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
