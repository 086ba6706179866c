import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import * as v from "valibot";
import type { BusinessType } from "../../../src/schemas/business-types.ts";
import { type Business, DEFAULT_QR_MESSAGE, DEFAULT_SUCCESS_MESSAGE, businessSchema } from "../../../src/schemas/businesses.ts";
import { ApiError } from "../../api/client.ts";
import { type BusinessBody, businessApi } from "../../api/businesses.ts";
import { businessTypeApi } from "../../api/endpoints.ts";
import { Field, FormActions, useForm } from "../../components/form.tsx";
import { ImagePicker, type ImageSlot, emptySlot } from "../../components/ImagePicker.tsx";
import { PhoneField } from "../../components/PhoneField.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { paths } from "../../paths.ts";
import "../../styles/businesses.css";

// Spec texts (sections 5 and 8).
export const SAMPLE_IMAGE_REQUIRED = "Sample product image is required";
export const SAMPLE_IMAGE_ALERT = "Sample product image is required. Please upload an image.";
export const LOGO_UPLOAD_FAILED = "Error uploading logo. Please try again.";
export const SAMPLE_UPLOAD_FAILED = "Error uploading sample image. Please try again.";
export const CREATE_FAILED = "Error creating business. Please try again.";
export const UPDATE_FAILED = "Error updating business. Please try again.";

const SAMPLE_TEXT_MAX = 100;
const MESSAGE_MAX = 200;

// The text fields; the two images are handled beside the form (a chosen file has no path until it is uploaded).
const detailsSchema = v.omit(businessSchema, ["logoImagePath", "sampleImagePath"]);

interface Values extends Record<string, unknown> {
  name: string;
  businessTypeId: string;
  address: string;
  phone: string;
  sampleProductText: string;
  qrMessage: string;
  successMessage: string;
  isActive: boolean;
}

const EMPTY: Values = {
  name: "",
  businessTypeId: "",
  address: "",
  phone: "",
  sampleProductText: "",
  qrMessage: "",
  successMessage: "",
  isActive: true,
};

function valuesOf(b: Business): Values {
  return {
    name: b.name,
    businessTypeId: String(b.businessTypeId),
    address: b.address,
    phone: b.phone,
    sampleProductText: b.sampleProductText,
    // The API answers the defaults for empty messages: show them as empty (the placeholder says what is used).
    qrMessage: b.qrMessage === DEFAULT_QR_MESSAGE ? "" : b.qrMessage,
    successMessage: b.successMessage === DEFAULT_SUCCESS_MESSAGE ? "" : b.successMessage,
    isActive: b.isActive,
  };
}

/** The type dropdown offers active types only, plus the business's current type if it has since been retired. */
export function offeredTypes(types: BusinessType[], currentId: number | null): BusinessType[] {
  return types.filter((t) => t.isActive || t.id === currentId);
}

function Counter({ length, max }: { length: number; max: number }) {
  return (
    <span className={`biz-counter${length > max ? " over" : ""}`} aria-live="polite">
      {length}/{max}
    </span>
  );
}

function useObjectUrlCleanup(slots: ImageSlot[]) {
  // Previews are object URLs: release each once it is replaced, and all of them when leaving the screen.
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

/** /businesses/add and /businesses/edit/:id. Edit mode when the route carries an id. */
export function BusinessFormPage() {
  const { id } = useParams<{ id?: string }>();
  const editing = id !== undefined;
  const [, navigate] = useLocation();
  const form = useForm(detailsSchema, EMPTY);
  const [types, setTypes] = useState<BusinessType[]>([]);
  const [currentTypeId, setCurrentTypeId] = useState<number | null>(null);
  const [loading, setLoading] = useState(editing);
  const [uploading, setUploading] = useState(false);
  const [logo, setLogo] = useState<ImageSlot>(emptySlot());
  const [sample, setSample] = useState<ImageSlot>(emptySlot());
  const [logoError, setLogoError] = useState<string | undefined>();
  const [sampleError, setSampleError] = useState<string | undefined>();
  const [imageSubmitted, setImageSubmitted] = useState(false);
  useObjectUrlCleanup([logo, sample]);

  useEffect(() => {
    let live = true;
    businessTypeApi
      .list()
      .then((list) => live && setTypes(list))
      .catch((err) => console.error("Error loading business types:", err));
    return () => {
      live = false;
    };
  }, []);

  // Edit: load the record; if that fails, back to My Business. Runs again only when the id changes.
  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    setLoading(true);
    businessApi
      .get(id)
      .then((b) => {
        if (!live) return;
        if (!("ownerId" in b)) throw new Error("not the owner's view");
        form.reset(valuesOf(b));
        setCurrentTypeId(b.businessTypeId);
        setLogo(emptySlot(b.logoImagePath));
        setSample(emptySlot(b.sampleImagePath));
        setLoading(false);
      })
      .catch((err) => {
        if (!live) return;
        console.error("Error loading business:", err);
        navigate(paths.myBusiness, { replace: true });
      });
    return () => {
      live = false;
    };
  }, [id]);

  function choose(which: "logo" | "sample", file: File, error: string | null) {
    const setSlot = which === "logo" ? setLogo : setSample;
    const setError = which === "logo" ? setLogoError : setSampleError;
    setError(error ?? undefined);
    // An invalid file is not kept: the current image (if any) stays.
    if (error) return;
    setSlot((old) => ({ path: old.path, file, preview: URL.createObjectURL(file) }));
  }

  function removeImage(which: "logo" | "sample") {
    // Removing the current image clears its path (spec section 2).
    if (which === "logo") {
      setLogo(emptySlot());
      setLogoError(undefined);
    } else {
      setSample(emptySlot());
      setSampleError(undefined);
    }
  }

  const hasSample = !!(sample.file || sample.path);
  const sampleMessage = sampleError ?? (imageSubmitted && !hasSample ? SAMPLE_IMAGE_REQUIRED : undefined);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (uploading) return;
    setImageSubmitted(true);
    // No request while the form is invalid (spec section 4); submitting shows every error.
    if (!form.submit() || !form.output) return;
    if (!hasSample) {
      window.alert(SAMPLE_IMAGE_ALERT);
      return;
    }
    setUploading(true);
    // First the chosen images, then the business; a failed upload aborts the save. An image that did upload is
    // remembered, so trying again does not send it twice.
    let logoPath = logo.path;
    let samplePath = sample.path;
    if (logo.file) {
      try {
        logoPath = (await businessApi.uploadLogo(logo.file)).filePath;
        setLogo({ path: logoPath, file: null, preview: logo.preview });
      } catch (err) {
        console.error("Error uploading logo:", err);
        setUploading(false);
        window.alert(LOGO_UPLOAD_FAILED);
        return;
      }
    }
    if (sample.file) {
      try {
        samplePath = (await businessApi.uploadSampleImage(sample.file)).filePath;
        setSample({ path: samplePath, file: null, preview: sample.preview });
      } catch (err) {
        console.error("Error uploading sample image:", err);
        setUploading(false);
        window.alert(SAMPLE_UPLOAD_FAILED);
        return;
      }
    }
    const out = form.output;
    const body: BusinessBody = {
      name: out.name,
      businessTypeId: out.businessTypeId,
      address: out.address,
      phone: out.phone,
      sampleProductText: out.sampleProductText,
      qrMessage: out.qrMessage,
      successMessage: out.successMessage,
      isActive: out.isActive,
      logoImagePath: logoPath,
      sampleImagePath: samplePath,
    };
    try {
      if (id !== undefined) await businessApi.update(id, body);
      else await businessApi.create(body);
    } catch (err) {
      console.error("Error saving business:", err);
      setUploading(false);
      const reason = err instanceof ApiError && err.status === 400 && err.message ? `\n\n${err.message}` : "";
      window.alert(`${editing ? UPDATE_FAILED : CREATE_FAILED}${reason}`);
      return;
    }
    navigate(paths.businesses);
  }

  const title = editing ? "Edit Business" : "Add Business";
  const offered = offeredTypes(types, currentTypeId);

  return (
    <section className="container page biz-form-page">
      <div className="form-card wide">
        <Link href={paths.myBusiness} className="biz-back">
          <span aria-hidden="true">←</span> Back to My Business
        </Link>
        <div className="card biz-form-card">
          <header className="biz-form-header">
            <h1>{title}</h1>
            <p className="page-subtitle">
              {editing ? "Changes show on your QR poster and in the business list." : "Customers see this when they scan your QR code or browse the list."}
            </p>
          </header>

          {loading ? (
            <Spinner label="Loading business..." />
          ) : (
            <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={title}>
              <fieldset className="biz-fieldset" disabled={uploading}>
                <legend>Business details</legend>
                <div className="two-cols">
                  <Field label="Business Name" error={form.error("name")}>
                    {(wiring) => (
                      <input
                        {...wiring}
                        name="name"
                        type="text"
                        autoComplete="organization"
                        placeholder="e.g. Rosie's Bakery"
                        aria-required="true"
                        value={form.values.name}
                        onChange={(e) => form.set("name", e.target.value)}
                        onBlur={() => form.touch("name")}
                      />
                    )}
                  </Field>
                  <Field label="Business Type" error={form.error("businessTypeId")}>
                    {(wiring) => (
                      <select
                        {...wiring}
                        name="businessTypeId"
                        aria-required="true"
                        value={form.values.businessTypeId}
                        onChange={(e) => form.set("businessTypeId", e.target.value)}
                        onBlur={() => form.touch("businessTypeId")}
                      >
                        <option value="">Select a business type</option>
                        {offered.map((t) => (
                          <option key={t.id} value={String(t.id)}>
                            {t.isActive ? t.name : `${t.name} (inactive)`}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                </div>
                <Field label="Address" error={form.error("address")}>
                  {(wiring) => (
                    <input
                      {...wiring}
                      name="address"
                      type="text"
                      autoComplete="street-address"
                      placeholder="e.g. 12 Baker Street, Springfield"
                      aria-required="true"
                      value={form.values.address}
                      onChange={(e) => form.set("address", e.target.value)}
                      onBlur={() => form.touch("address")}
                    />
                  )}
                </Field>
                <div className="two-cols">
                  <PhoneField label="Phone" hint="US number, e.g. (415) 555-0134" autoComplete="tel" required {...form.bind("phone")} />
                  <Field
                    label="Sample Product"
                    error={form.error("sampleProductText")}
                    hint={
                      <>
                        <span>Shown on your poster</span>
                        <Counter length={form.values.sampleProductText.length} max={SAMPLE_TEXT_MAX} />
                      </>
                    }
                  >
                    {(wiring) => (
                      <input
                        {...wiring}
                        name="sampleProductText"
                        type="text"
                        placeholder="e.g. Sourdough loaf, baked at dawn"
                        aria-required="true"
                        value={form.values.sampleProductText}
                        onChange={(e) => form.set("sampleProductText", e.target.value)}
                        onBlur={() => form.touch("sampleProductText")}
                      />
                    )}
                  </Field>
                </div>
              </fieldset>

              <fieldset className="biz-fieldset" disabled={uploading}>
                <legend>Images</legend>
                <div className="biz-images">
                  <ImagePicker
                    label="Logo"
                    name="logo"
                    shape="square"
                    slot={logo}
                    hint="JPG, PNG, GIF or BMP, up to 5MB. Without a logo your initials are shown."
                    error={logoError}
                    disabled={uploading}
                    onChoose={(file, error) => choose("logo", file, error)}
                    onRemove={() => removeImage("logo")}
                  />
                  <ImagePicker
                    label="Sample Product Image"
                    name="sample"
                    shape="wide"
                    required
                    slot={sample}
                    hint="JPG, PNG, GIF or BMP, up to 5MB. A photo of what you sell."
                    error={sampleMessage}
                    disabled={uploading}
                    onChoose={(file, error) => choose("sample", file, error)}
                    onRemove={() => removeImage("sample")}
                  />
                </div>
              </fieldset>

              <fieldset className="biz-fieldset" disabled={uploading}>
                <legend>Messages</legend>
                <Field
                  label="QR Message"
                  error={form.error("qrMessage")}
                  hint={
                    <>
                      <span>Printed under your QR code. Leave empty for the default.</span>
                      <Counter length={form.values.qrMessage.length} max={MESSAGE_MAX} />
                    </>
                  }
                >
                  {(wiring) => (
                    <textarea
                      {...wiring}
                      name="qrMessage"
                      rows={2}
                      placeholder={DEFAULT_QR_MESSAGE}
                      value={form.values.qrMessage}
                      onChange={(e) => form.set("qrMessage", e.target.value)}
                      onBlur={() => form.touch("qrMessage")}
                    />
                  )}
                </Field>
                <Field
                  label="Success Message"
                  error={form.error("successMessage")}
                  hint={
                    <>
                      <span>Shown after someone subscribes. Leave empty for the default.</span>
                      <Counter length={form.values.successMessage.length} max={MESSAGE_MAX} />
                    </>
                  }
                >
                  {(wiring) => (
                    <textarea
                      {...wiring}
                      name="successMessage"
                      rows={2}
                      placeholder={DEFAULT_SUCCESS_MESSAGE}
                      value={form.values.successMessage}
                      onChange={(e) => form.set("successMessage", e.target.value)}
                      onBlur={() => form.touch("successMessage")}
                    />
                  )}
                </Field>
                <label className="checkbox biz-checkbox">
                  <input type="checkbox" name="isActive" checked={form.values.isActive} onChange={(e) => form.set("isActive", e.target.checked)} />
                  <span>
                    Active
                    <small className="muted">Inactive businesses are hidden from the public list and cannot take new subscribers.</small>
                  </span>
                </label>
              </fieldset>

              <FormActions
                className="biz-form-actions"
                cancelHref={paths.myBusiness}
                saving={uploading}
                valid={form.valid}
                label={editing ? "Update Business" : "Create Business"}
              />
            </form>
          )}
        </div>
      </div>
    </section>
  );
}
