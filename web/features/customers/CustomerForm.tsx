import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import type { PublicBusiness } from "../../../src/schemas/businesses.ts";
import { createCustomerSchema, editCustomerSchema } from "../../../src/schemas/customer-admin.ts";
import { ApiError } from "../../shared/api/client.ts";
import { businessReadApi } from "../../shared/api/businesses.ts";
import { customerApi } from "./api/customers.ts";
import { CheckboxField, SelectField } from "../../shared/components/ChoiceFields.tsx";
import { ContactPreferenceCards } from "../../shared/components/ContactPreferenceCards.tsx";
import { type FormValues, useForm } from "../../shared/components/form.tsx";
import { FormActions } from "../../shared/components/FormActions.tsx";
import { PhoneField } from "../../shared/components/PhoneField.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { paths } from "../../shared/paths.ts";
import { isAdmin } from "../../shared/state/session.ts";
import "../../shared/styles/customers.css";

export const CREATE_CUSTOMER_FAILED = "Error creating customer. Please try again.";
export const UPDATE_CUSTOMER_FAILED = "Error updating customer. Please try again.";

// Add asks which business too; edit validates the same values without it.
type Schema = typeof createCustomerSchema | typeof editCustomerSchema;
type Values = FormValues<typeof createCustomerSchema>;
const EMPTY: Values = { phone: "", contactPreference: "", businessId: "", sendConfirmation: true };
export const SEND_CONFIRMATION_NOTE = "A text saying they subscribed, how often you send, and how to stop (carriers expect it).";
export type BusinessOption = Pick<PublicBusiness, "id" | "name" | "isActive">;

/** The owner's businesses (the admin's: every business), for the "which business" select. */
export async function loadBusinessOptions(admin: boolean): Promise<BusinessOption[]> {
  const mine = await businessReadApi.listMine();
  const all = admin ? await businessReadApi.listActive().catch(() => []) : [];
  const byId = new Map<number, BusinessOption>();
  for (const b of [...mine, ...all]) byId.set(b.id, { id: b.id, name: b.name, isActive: b.isActive });
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The alert over the form: the spec's sentence, and the server's reason where it gave one a person can act on. */
function failureOf(err: unknown, editing: boolean): { title: string; detail?: string } {
  const title = editing ? UPDATE_CUSTOMER_FAILED : CREATE_CUSTOMER_FAILED;
  const detail = err instanceof ApiError && (err.status === 400 || err.status === 409 || err.status === 404) ? err.message : undefined;
  return { title, detail: detail && detail !== title ? detail : undefined };
}

/** /customers/add and /customers/edit/:id: edit mode when the route has an id (spec section 4). */
export function CustomerFormPage() {
  useSignals();
  const { id } = useParams<{ id?: string }>();
  const editing = id !== undefined;
  const [, navigate] = useLocation();
  const form = useForm<Schema, Values>(editing ? editCustomerSchema : createCustomerSchema, EMPTY);
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<{ title: string; detail?: string } | null>(null);
  const [businesses, setBusinesses] = useState<BusinessOption[]>([]);
  const admin = isAdmin.value;
  const { busy, onSubmit } = useSubmit(form, {
    async send(out) {
      setFailure(null);
      const body = { phone: out.phone, contactPreference: out.contactPreference };
      if (id !== undefined) await customerApi.update(id, body);
      else if ("businessId" in out) await customerApi.create({ ...body, businessId: out.businessId, sendConfirmation: out.sendConfirmation });
      navigate(paths.customers);
    },
    fail(err) {
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length) form.setServerErrors(err.fields);
      setFailure(failureOf(err, editing));
    },
  });

  useEffect(() => {
    let live = true;
    setLoading(true);
    if (editing) {
      customerApi
        .get(id)
        .then((c) => {
          if (!live) return;
          form.reset({ phone: c.phone, contactPreference: c.contactPreference, businessId: "", sendConfirmation: false });
          setLoading(false);
        })
        .catch(() => {
          // Spec: if loading the record for edit fails, return to the list.
          if (live) navigate(paths.customers, { replace: true });
        });
    } else {
      loadBusinessOptions(admin)
        .then((list) => {
          if (!live) return;
          setBusinesses(list);
          if (list.length === 1) form.set("businessId", String(list[0]!.id));
        })
        .catch((err) => console.error("Failed to load businesses", err))
        .finally(() => live && setLoading(false));
    }
    return () => {
      live = false;
    };
    // form is a fresh object every render; the load depends on the route only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, editing, admin]);

  const title = editing ? "Edit Customer" : "Add Customer";
  const noBusinesses = !editing && !loading && businesses.length === 0;

  return (
    <section className="container page">
      <div className="card form-card cust-form-card">
        <Link href={paths.customers} className="cust-back">
          ← Back to customers
        </Link>
        <h1>{title}</h1>
        <p className="page-subtitle cust-form-subtitle">
          {editing ? "Correct the phone number or how they prefer to be contacted." : "Add someone who asked to hear from your business."}
        </p>
        {loading ? (
          <Spinner label={editing ? "Loading customer..." : "Loading your businesses..."} />
        ) : noBusinesses ? (
          <div className="alert alert-info" role="status">
            You need a business before you can add customers. <Link href={paths.businessAdd}>Add your business</Link>
          </div>
        ) : (
          <form className="cust-form" onSubmit={onSubmit} noValidate aria-label={title}>
            {failure && (
              <div className="alert alert-error" role="alert">
                {failure.title}
                {failure.detail && <div className="cust-failure-detail">{failure.detail}</div>}
              </div>
            )}
            {!editing && (
              <SelectField
                label="Business"
                hint="The business this person is subscribing to."
                placeholder="Select a business"
                choices={businesses.map((b) => ({ value: String(b.id), label: b.isActive ? b.name : `${b.name} (inactive)` }))}
                {...form.bind("businessId")}
              />
            )}
            <PhoneField
              label="Phone Number"
              hint="Any common format, e.g. (415) 555-0134 or +44 7911 123456."
              autoComplete="off"
              {...form.bind("phone")}
            />
            <ContactPreferenceCards
              legend="Contact Preference"
              {...form.bind("contactPreference")}
              onChange={(value) => {
                form.set("contactPreference", value);
                form.touch("contactPreference");
              }}
            />
            {!editing && <CheckboxField label="Send a confirmation text" note={SEND_CONFIRMATION_NOTE} {...form.bind("sendConfirmation")} />}
            <FormActions cancelHref={paths.customers} saving={busy} valid={form.valid} label={editing ? "Update Customer" : "Add Customer"} />
          </form>
        )}
      </div>
    </section>
  );
}
