import { useEffect, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { DEFAULT_SUCCESS_MESSAGE } from "../../../src/schemas/businesses.ts";
import { KEYWORD_HINT } from "../../../src/schemas/join-keyword.ts";
import { DEFAULT_QR_MESSAGE, sampleDealText } from "../../../src/schemas/poster-text.ts";
import { ApiError } from "../../shared/api/client.ts";
import { businessReadApi } from "../../shared/api/businesses.ts";
import { type BusinessBody, businessApi } from "./api.ts";
import { CheckboxField } from "../../shared/components/ChoiceFields.tsx";
import { useForm } from "../../shared/components/form.tsx";
import { FormActions } from "../../shared/components/FormActions.tsx";
import { PhoneField } from "../../shared/components/PhoneField.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { TextAreaField, TextField } from "../../shared/components/TextFields.tsx";
import { useLeaveGuard } from "../../shared/components/useLeaveGuard.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { paths } from "../../shared/paths.ts";
import { notify } from "../../shared/state/toasts.ts";
import { EMPTY, detailsSchema, missingFields, valuesOf } from "./business-form-values.ts";
import { BusinessImagesFieldset, SAMPLE_IMAGE_ALERT, UploadFailed, useBusinessImages } from "./BusinessImages.tsx";
import { BusinessTypeSelect, useBusinessTypes } from "./BusinessTypeSelect.tsx";
import { TimeZoneSelect } from "./TimeZoneSelect.tsx";
import "../../shared/styles/businesses.css";

// Spec texts (section 8).
export const CREATE_FAILED = "Error creating business. Please try again.";
export const UPDATE_FAILED = "Error updating business. Please try again.";
export const DOUBLE_OPT_IN_NOTE = "New subscribers from your poster get nothing until they reply YES to the confirmation text.";
export const MESSAGES_PER_WEEK_HINT = "How many promotions you send at most, shown to customers";
export const CREATED_TITLE = "Business Created";
export const createdText = (name: string) => `${name} is ready. Open its QR Code to print your poster.`;

/** The alert of a failed save: the upload's own sentence, else the spec's, with the server's reason for a 400. */
function saveFailedText(err: unknown, editing: boolean): string {
  if (err instanceof UploadFailed) return err.message;
  console.error("Error saving business:", err);
  const reason = err instanceof ApiError && (err.status === 400 || err.status === 409) && err.message ? `\n\n${err.message}` : "";
  return `${editing ? UPDATE_FAILED : CREATE_FAILED}${reason}`;
}

/** /businesses/add and /businesses/edit/:id. Edit mode when the route carries an id. */
export function BusinessFormPage() {
  const { id } = useParams<{ id?: string }>();
  const editing = id !== undefined;
  const [, navigate] = useLocation();
  const form = useForm(detailsSchema, EMPTY);
  const types = useBusinessTypes();
  const images = useBusinessImages();
  const [currentTypeId, setCurrentTypeId] = useState<number | null>(null);
  // The offer follows the chosen type's keyword deal until the owner writes (or clears) their own.
  const [offerFollowsType, setOfferFollowsType] = useState(true);
  const [loading, setLoading] = useState(editing);
  // What the form held when it opened (or the stored business once loaded): any difference is an unsaved edit.
  const [baseline, setBaseline] = useState(EMPTY);
  // No request while the form is invalid (spec section 4); the sample image is checked (and alerted) after the fields.
  const attempt = {
    submit() {
      images.markSubmitted();
      if (!form.submit()) return false;
      if (images.hasSample) return true;
      window.alert(SAMPLE_IMAGE_ALERT);
      return false;
    },
    output: form.output,
  };
  const { busy, onSubmit } = useSubmit(attempt, {
    async send(details) {
      const body: BusinessBody = { ...details, ...(await images.upload()) };
      if (id !== undefined) {
        await businessApi.update(id, body);
        navigate(paths.businesses);
        return;
      }
      await businessApi.create(body);
      // The owner's next step is on My Business (its QR code, a broadcast), not the public list.
      notify.success(CREATED_TITLE, createdText(body.name));
      navigate(paths.myBusiness);
    },
    fail: (err) => {
      // A keyword another business holds (409) is shown under its field too, until it is changed.
      if (err instanceof ApiError) form.setServerErrors(err.fields);
      window.alert(saveFailedText(err, editing));
    },
  });

  // A record that cannot be loaded (gone, or not this owner's) sends the owner back rather than showing an empty form.
  // Keyed on the id alone: form and images are fresh objects every render.
  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    setLoading(true);
    businessReadApi
      .get(id)
      .then((b) => {
        if (!live) return;
        if (!("ownerId" in b)) throw new Error("not the owner's view");
        form.reset(valuesOf(b));
        setBaseline(valuesOf(b));
        setCurrentTypeId(b.businessTypeId);
        setOfferFollowsType(b.posterOffer == null);
        images.load(b.logoImagePath, b.sampleImagePath);
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

  const typeField = form.bind("businessTypeId");
  function typeChosen(value: string) {
    typeField.onChange(value);
    if (offerFollowsType) form.set("posterOffer", sampleDealText(types.find((t) => String(t.id) === value)?.name));
  }
  const offerField = form.bind("posterOffer");
  function offerTyped(value: string) {
    setOfferFollowsType(false);
    offerField.onChange(value);
  }

  const title = editing ? "Edit Business" : "Add Business";
  const imageChosen = !!(images.slots.logo.file || images.slots.sample.file);
  const dirty = !loading && (imageChosen || JSON.stringify(form.values) !== JSON.stringify(baseline));
  const leaveDialog = useLeaveGuard(dirty && !busy);

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
              <fieldset className="biz-fieldset" disabled={busy}>
                <legend>Business details</legend>
                <div className="two-cols">
                  <TextField label="Business Name" autoComplete="organization" placeholder="e.g. Rosie's Bakery" aria-required="true" {...form.bind("name")} />
                  <BusinessTypeSelect types={types} currentId={currentTypeId} {...typeField} onChange={typeChosen} />
                </div>
                <TextField
                  label="Address"
                  autoComplete="street-address"
                  placeholder="e.g. 12 Baker Street, Springfield"
                  aria-required="true"
                  {...form.bind("address")}
                />
                <div className="two-cols">
                  <PhoneField label="Phone" hint="US number, e.g. (415) 555-0134" autoComplete="tel" required {...form.bind("phone")} />
                  <TextField
                    label="Sample Product"
                    hint="Shown on your poster"
                    counter
                    placeholder="e.g. Sourdough loaf, baked at dawn"
                    aria-required="true"
                    {...form.bind("sampleProductText")}
                  />
                </div>
                <TextAreaField
                  label="Poster Offer"
                  hint="Printed on your poster. Clear it to print no offer."
                  counter
                  rows={2}
                  {...offerField}
                  onChange={offerTyped}
                />
              </fieldset>

              <BusinessImagesFieldset images={images} disabled={busy} />

              <fieldset className="biz-fieldset" disabled={busy}>
                <legend>Messages</legend>
                <div className="two-cols">
                  <TextField
                    label="Messages per week (at most)"
                    hint={MESSAGES_PER_WEEK_HINT}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    aria-required="true"
                    {...form.bind("messagesPerWeek")}
                  />
                  <TimeZoneSelect {...form.bind("timeZone")} />
                </div>
                <TextAreaField
                  label="QR Message"
                  hint="Printed under your QR code. Leave empty for the default."
                  counter
                  rows={2}
                  placeholder={DEFAULT_QR_MESSAGE}
                  {...form.bind("qrMessage")}
                />
                <TextAreaField
                  label="Success Message"
                  hint="Shown after someone subscribes. Leave empty for the default."
                  counter
                  rows={2}
                  placeholder={DEFAULT_SUCCESS_MESSAGE}
                  {...form.bind("successMessage")}
                />
                <TextField
                  label="Join Keyword"
                  hint={KEYWORD_HINT}
                  autoCapitalize="characters"
                  placeholder="e.g. BAGEL"
                  {...form.bind("keyword")}
                />
                <CheckboxField
                  label="Double opt-in"
                  note={DOUBLE_OPT_IN_NOTE}
                  {...form.bind("doubleOptIn")}
                />
                <CheckboxField
                  label="Active"
                  note="Inactive businesses are hidden from the public list and cannot take new subscribers."
                  {...form.bind("isActive")}
                />
              </fieldset>

              <FormActions
                className="biz-form-actions"
                cancelHref={paths.myBusiness}
                saving={busy}
                valid={form.valid}
                label={editing ? "Update Business" : "Create Business"}
                missing={missingFields(form.errors, images.hasSample)}
              />
            </form>
          )}
          {leaveDialog}
        </div>
      </div>
    </section>
  );
}
