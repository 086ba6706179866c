import { useEffect, useRef, useState } from "react";
import * as v from "valibot";
import { businessSchema } from "../../../src/schemas/businesses.ts";
import { check } from "../../../src/schemas/check.ts";
import { businessApi } from "./api.ts";
import { ImagePicker, type ImageSlot, emptySlot } from "../../shared/components/ImagePicker.tsx";

/** What the schema says of a business without a sample image (spec section 5), shown under the picker. */
export const SAMPLE_IMAGE_REQUIRED = requiredText(v.pick(businessSchema, ["sampleImagePath"]));

// Spec texts (sections 5 and 8).
export const SAMPLE_IMAGE_ALERT = "Sample product image is required. Please upload an image.";
export const LOGO_UPLOAD_FAILED = "Error uploading logo. Please try again.";
export const SAMPLE_UPLOAD_FAILED = "Error uploading sample image. Please try again.";

type Which = "logo" | "sample";

function requiredText(schema: v.GenericSchema): string {
  const result = check(schema, {});
  return result.ok ? "" : result.message;
}

/** An upload that failed; its message is the spec's alert for that image. */
export class UploadFailed extends Error {}

const UPLOADS: Record<Which, { upload: (file: File) => Promise<{ filePath: string }>; what: string; failed: string }> = {
  logo: { upload: businessApi.uploadLogo, what: "logo", failed: LOGO_UPLOAD_FAILED },
  sample: { upload: businessApi.uploadSampleImage, what: "sample image", failed: SAMPLE_UPLOAD_FAILED },
};

/** Previews are object URLs: each is released once it is replaced, and all of them when the screen is left. */
function useObjectUrlCleanup(slots: ImageSlot[]) {
  const live = useRef(new Set<string>());
  useEffect(() => {
    const now = new Set(slots.map((s) => s.preview).filter((p): p is string => !!p));
    for (const url of live.current) if (!now.has(url)) URL.revokeObjectURL(url);
    live.current = now;
  });
  useEffect(
    () => () => {
      for (const url of live.current) URL.revokeObjectURL(url);
    },
    [],
  );
}

/**
 * The logo (optional) and sample image (required) of the business form. A chosen file has no path until the form is
 * saved, so the images live beside the schema-checked fields rather than in them.
 */
export function useBusinessImages() {
  const [slots, setSlots] = useState<Record<Which, ImageSlot>>({ logo: emptySlot(), sample: emptySlot() });
  const [errors, setErrors] = useState<Record<Which, string | undefined>>({ logo: undefined, sample: undefined });
  const [submitted, setSubmitted] = useState(false);
  useObjectUrlCleanup([slots.logo, slots.sample]);
  const hasSample = !!(slots.sample.file || slots.sample.path);
  const setSlot = (which: Which, slot: ImageSlot) => setSlots((old) => ({ ...old, [which]: slot }));
  const setError = (which: Which, error: string | undefined) => setErrors((old) => ({ ...old, [which]: error }));

  /** Uploads one chosen file and remembers its path, so trying the save again does not send it twice. */
  async function uploadChosen(which: Which): Promise<string | null> {
    const { file, path, preview } = slots[which];
    if (!file) return path;
    try {
      const uploaded = (await UPLOADS[which].upload(file)).filePath;
      setSlot(which, { path: uploaded, file: null, preview });
      return uploaded;
    } catch (err) {
      console.error(`Error uploading ${UPLOADS[which].what}:`, err);
      throw new UploadFailed(UPLOADS[which].failed);
    }
  }

  return {
    slots,
    hasSample,
    errors: { logo: errors.logo, sample: errors.sample ?? (submitted && !hasSample ? SAMPLE_IMAGE_REQUIRED : undefined) },
    /** The stored images of the business being edited. */
    load(logoPath: string | null, samplePath: string | null) {
      setSlots({ logo: emptySlot(logoPath), sample: emptySlot(samplePath) });
    },
    choose(which: Which, file: File, error: string | null) {
      setError(which, error ?? undefined);
      // An invalid file is not kept: the current image (if any) stays.
      if (!error) setSlots((old) => ({ ...old, [which]: { path: old[which].path, file, preview: URL.createObjectURL(file) } }));
    },
    /** Removing the current image clears its path (spec section 2). */
    remove(which: Which) {
      setSlot(which, emptySlot());
      setError(which, undefined);
    },
    /** A save was attempted: a missing sample image now shows its error. */
    markSubmitted: () => setSubmitted(true),
    /** Uploads the chosen files, logo first (spec section 4); throws UploadFailed, and the save stops there. */
    async upload(): Promise<{ logoImagePath: string | null; sampleImagePath: string | null }> {
      const logoImagePath = await uploadChosen("logo");
      const sampleImagePath = await uploadChosen("sample");
      return { logoImagePath, sampleImagePath };
    },
  };
}

type BusinessImages = ReturnType<typeof useBusinessImages>;

const IMAGE_HINT = "JPG, PNG, GIF or BMP, up to 5MB.";

/** The form's Images section: the two pickers. */
export function BusinessImagesFieldset({ images, disabled }: { images: BusinessImages; disabled: boolean }) {
  return (
    <fieldset className="biz-fieldset" disabled={disabled}>
      <legend>Images</legend>
      <div className="biz-images">
        <ImagePicker
          label="Logo"
          name="logo"
          shape="square"
          slot={images.slots.logo}
          hint={`${IMAGE_HINT} Without a logo your initials are shown.`}
          error={images.errors.logo}
          disabled={disabled}
          onChoose={(file, error) => images.choose("logo", file, error)}
          onRemove={() => images.remove("logo")}
        />
        <ImagePicker
          label="Sample Product Image"
          name="sample"
          shape="wide"
          required
          slot={images.slots.sample}
          hint={`${IMAGE_HINT} A photo of what you sell.`}
          error={images.errors.sample}
          disabled={disabled}
          onChoose={(file, error) => images.choose("sample", file, error)}
          onRemove={() => images.remove("sample")}
        />
      </div>
    </fieldset>
  );
}
