import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { type BusinessType, businessTypeSchema } from "../../../src/schemas/business-types.ts";
import { ApiError } from "../../shared/api/client.ts";
import { businessTypeApi } from "./api.ts";
import { CheckboxField } from "../../shared/components/ChoiceFields.tsx";
import { type FormValues, useForm } from "../../shared/components/form.tsx";
import { FormActions } from "../../shared/components/FormActions.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { TextAreaField, TextField } from "../../shared/components/TextFields.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { paths } from "../../shared/paths.ts";
import "../../shared/styles/admin.css";

export const CREATE_FAILED = "Error creating business type. Please try again.";
export const UPDATE_FAILED = "Error updating business type. Please try again.";

type Values = FormValues<typeof businessTypeSchema>;
const EMPTY: Values = { name: "", description: "", isActive: true };
const valuesOf = (t: BusinessType): Values => ({ name: t.name, description: t.description ?? "", isActive: t.isActive });

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
  const nameRef = useRef<HTMLInputElement>(null);
  const { busy, onSubmit } = useSubmit(form, {
    async send(body) {
      if (id !== undefined) await businessTypeApi.update(id, body);
      else await businessTypeApi.create(body);
      navigate(paths.businessTypes);
    },
    fail: (err) => window.alert(saveErrorMessage(err, editing)),
  });

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
        form.reset(valuesOf(t));
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

  const title = editing ? "Edit Business Type" : "Add Business Type";

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
              <TextField ref={nameRef} label="Name" autoComplete="off" placeholder="e.g. Bakery" aria-required="true" {...form.bind("name")} />
              <TextAreaField
                label="Description"
                hint="Optional. Shown to owners when they pick a type."
                counter
                rows={5}
                placeholder="e.g. Bread, cakes and pastries baked fresh every day"
                {...form.bind("description")}
              />
              <CheckboxField
                className="admin-checkbox"
                label="Active"
                note="Inactive types stay on existing businesses but are not offered for new ones."
                {...form.bind("isActive")}
              />
              <FormActions
                cancelHref={paths.businessTypes}
                saving={busy}
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
