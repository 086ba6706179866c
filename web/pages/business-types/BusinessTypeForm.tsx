import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { BUSINESS_TYPE_DESCRIPTION_MAX, businessTypeSchema } from "../../../src/schemas/business-types.ts";
import { ApiError } from "../../api/client.ts";
import { businessTypeApi } from "../../api/endpoints.ts";
import { Field, FormActions, useForm } from "../../components/form.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { paths } from "../../paths.ts";
import "../../styles/admin.css";

export const CREATE_FAILED = "Error creating business type. Please try again.";
export const UPDATE_FAILED = "Error updating business type. Please try again.";

const EMPTY = { name: "", description: "", isActive: true };

/** Spec: a failed save alerts the generic sentence, except a 409 (the name is taken), whose reason the server words. */
export function saveErrorMessage(err: unknown, editing: boolean): string {
  if (err instanceof ApiError && err.status === 409 && err.message) return err.message;
  return editing ? UPDATE_FAILED : CREATE_FAILED;
}

/** /business-types/add and /business-types/edit/:id (admin). Edit mode when the route carries an id. */
export function BusinessTypeFormPage() {
  const { id } = useParams<{ id?: string }>();
  const editing = id !== undefined;
  const [, navigate] = useLocation();
  const form = useForm(businessTypeSchema, EMPTY);
  const [loading, setLoading] = useState(editing);
  const [saving, setSaving] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  // Edit: load the record; if that fails, back to the list (spec section 2).
  // Runs again only when the id changes (form.reset is a fresh closure each render, on purpose left out).
  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    setLoading(true);
    businessTypeApi
      .get(id)
      .then((t) => {
        if (!live) return;
        form.reset({ name: t.name, description: t.description ?? "", isActive: t.isActive });
        setLoading(false);
      })
      .catch((err) => {
        if (!live) return;
        console.error("Error loading business type:", err);
        navigate(paths.businessTypes, { replace: true });
      });
    return () => {
      live = false;
    };
  }, [id]);

  // A new type starts at its name; an edit does not (on a phone that would pop the keyboard over the record).
  useEffect(() => {
    if (!editing) nameRef.current?.focus();
  }, [editing]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    // No request while the form is invalid (spec section 4); submitting shows every error.
    if (!form.submit() || !form.output) return;
    const body = { name: form.output.name, description: form.output.description, isActive: form.output.isActive };
    setSaving(true);
    try {
      if (id !== undefined) await businessTypeApi.update(id, body);
      else await businessTypeApi.create(body);
      navigate(paths.businessTypes);
    } catch (err) {
      setSaving(false);
      window.alert(saveErrorMessage(err, editing));
    }
  }

  const title = editing ? "Edit Business Type" : "Add Business Type";
  const descriptionLength = form.values.description.length;
  const over = descriptionLength > BUSINESS_TYPE_DESCRIPTION_MAX;

  return (
    <section className="container page admin-page">
      <div className="form-card wide admin-form-wrap">
        <Link href={paths.businessTypes} className="admin-back">
          <span aria-hidden="true">←</span> Back to Business Types
        </Link>
        <div className="card">
          <header className="admin-form-header">
            <h1>{title}</h1>
            <p className="page-subtitle">
              {editing ? "Changes show wherever this type is used." : "Owners choose a type when they add their business."}
            </p>
          </header>

          {loading ? (
            <Spinner label="Loading business type..." />
          ) : (
            <form onSubmit={onSubmit} noValidate aria-label={title}>
              <Field label="Name" error={form.error("name")}>
                {(wiring) => (
                  <input
                    {...wiring}
                    ref={nameRef}
                    name="name"
                    type="text"
                    autoComplete="off"
                    placeholder="e.g. Bakery"
                    aria-required="true"
                    value={form.values.name}
                    onChange={(e) => form.set("name", e.target.value)}
                    onBlur={() => form.touch("name")}
                  />
                )}
              </Field>

              <Field
                label="Description"
                error={form.error("description")}
                hint={
                  <>
                    <span>Optional. Shown to owners when they pick a type.</span>
                    <span className={`admin-counter${over ? " over" : ""}`} aria-live="polite">
                      {descriptionLength}/{BUSINESS_TYPE_DESCRIPTION_MAX}
                    </span>
                  </>
                }
              >
                {(wiring) => (
                  <textarea
                    {...wiring}
                    name="description"
                    rows={5}
                    placeholder="e.g. Bread, cakes and pastries baked fresh every day"
                    value={form.values.description}
                    onChange={(e) => form.set("description", e.target.value)}
                    onBlur={() => form.touch("description")}
                  />
                )}
              </Field>

              <label className="checkbox admin-checkbox">
                <input
                  type="checkbox"
                  name="isActive"
                  checked={form.values.isActive}
                  onChange={(e) => form.set("isActive", e.target.checked)}
                />
                <span>
                  Active
                  <small className="muted">Inactive types stay on existing businesses but are not offered for new ones.</small>
                </span>
              </label>

              <FormActions
                cancelHref={paths.businessTypes}
                saving={saving}
                valid={form.valid}
                label={editing ? "Update Business Type" : "Create Business Type"}
              />
            </form>
          )}
        </div>
      </div>
    </section>
  );
}
