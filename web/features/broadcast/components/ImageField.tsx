import { useEffect, useId, useRef, useState } from "react";
import { BROADCAST_IMAGE_TOO_LARGE, BROADCAST_INVALID_IMAGE } from "../../../../src/schemas/texts.ts";
import { checkImageByContent } from "../../../shared/image-file.ts";
import { FieldNotes, notesIds } from "../../../shared/components/form.tsx";
import { ImageFileInput } from "../../../shared/components/ImageFileInput.tsx";

// The broadcast's optional image: choose, check (type and size, before anything is sent), confirm and preview.
// The object URL of the preview belongs to useChosenImage, which revokes it when it is replaced or the screen is left.

export const BROADCAST_IMAGE_HELP = "Supported formats: JPG, PNG, GIF, BMP. Maximum size: 5MB";

/** Why `file` cannot be attached, or null: by its first bytes, as the business form and the server judge it. */
export function checkBroadcastImage(file: File): Promise<string | null> {
  return checkImageByContent(file, { invalid: BROADCAST_INVALID_IMAGE, tooLarge: BROADCAST_IMAGE_TOO_LARGE });
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

/** The page's chosen image, its error and whether a pick is still being checked; `choose` checks a file first. */
export function useChosenImage() {
  const [image, setImage] = useState<ChosenImage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  // The preview's object URL is released when it is replaced or removed, and when the screen is left.
  useEffect(() => {
    if (!image) return;
    const url = image.url;
    return () => URL.revokeObjectURL(url);
  }, [image]);

  // The check reads the file: only the latest pick counts, and none once the image is removed or the screen is left.
  const pick = useRef(0);
  useEffect(() => () => void pick.current++, []);

  async function choose(file: File) {
    const n = ++pick.current;
    setChecking(true);
    const problem = await checkBroadcastImage(file);
    if (n !== pick.current) return;
    setChecking(false);
    setError(problem);
    setImage(problem ? null : { file, url: URL.createObjectURL(file) });
  }

  /** After a send: no image, no error. */
  function clear() {
    setImage(null);
    setError(null);
  }

  function remove() {
    pick.current++;
    setChecking(false);
    clear();
  }

  return { image, error, checking, choose, remove, clear };
}

interface ImageFieldProps {
  image: ChosenImage | null;
  error: string | null;
  /** A picked file is being read (its first bytes decide whether it is an image). */
  checking: boolean;
  disabled: boolean;
  onChoose: (file: File) => void;
  onRemove: () => void;
}

export function ImageField({ image, error, checking, disabled, onChoose, onRemove }: ImageFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [broken, setBroken] = useState<string | null>(null);
  const describedBy = notesIds(id, BROADCAST_IMAGE_HELP, error);

  return (
    <div className={`field bc-image-field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>
        Image <span className="bc-optional">(optional)</span>
      </label>
      <div className="bc-image-row">
        <button type="button" className="btn btn-secondary bc-image-choose" onClick={() => input.current?.click()} disabled={disabled} aria-busy={checking} aria-describedby={describedBy}>
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
      <ImageFileInput ref={input} id={id} name="Image" aria-describedby={describedBy} aria-invalid={!!error} disabled={disabled} onFile={onChoose} />
      <FieldNotes id={id} hint={BROADCAST_IMAGE_HELP} error={error} />
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
