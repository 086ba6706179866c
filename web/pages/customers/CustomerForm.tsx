import { useSignals } from "@preact/signals-react/runtime";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import type { PublicBusiness } from "../../../src/schemas/businesses.ts";
import { createCustomerSchema, editCustomerSchema } from "../../../src/schemas/customer-admin.ts";
import type { ContactPreference } from "../../../src/schemas/customers.ts";
import { ApiError } from "../../api/client.ts";
import { customerApi, customerBusinessApi } from "../../api/customers.ts";
import { ContactPreferenceCards } from "../../components/ContactPreferenceCards.tsx";
import { Field, FormActions, useForm } from "../../components/form.tsx";
import { PhoneField } from "../../components/PhoneField.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { paths } from "../../paths.ts";
import { isAdmin } from "../../state/session.ts";
import "../../styles/customers.css";

export const CREATE_CUSTOMER_FAILED = "Error creating customer. Please try again.";
export const UPDATE_CUSTOMER_FAILED = "Error updating customer. Please try again.";

type Values = { phone: string; contactPreference: ContactPreference | ""; businessId: string };
type BusinessOption = Pick<PublicBusiness, "id" | "name" | "isActive">;

/** The owner's businesses (the admin's: every business), for the "which business" select. */
async function loadBusinessOptions(admin: boolean): Promise<BusinessOption[]> {
  const mine = await customerBusinessApi.mine();
  const all = admin ? await customerBusinessApi.allActive().catch(() => []) : [];
  const byId = new Map<number, BusinessOption>();
  for (const b of [...mine, ...all]) byId.set(b.id, { id: b.id, name: b.name, isActive: b.isActive });
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** /customers/add and /customers/edit/:id: edit mode when the route has an id (spec section 4). */
export function CustomerFormPage() {
  useSignals();
  const params = useParams<{ id?: string }>();
  const id = params.id;
  const editing = id !== undefined;
  const [, navigate] = useLocation();
  const form = useForm(editing ? editCustomerSchema : createCustomerSchema, { phone: "", contactPreference: "", businessId: "" } as Values);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ title: string; detail?: string } | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [businesses, setBusinesses] = useState<BusinessOption[]>([]);
  const admin = isAdmin.value;

  useEffect(() => {
    let live = true;
    setLoading(true);
    if (editing) {
      customerApi
        .get(id)
        .then((c) => {
          if (!live) return;
          form.reset({ phone: c.phone, contactPreference: c.contactPreference, businessId: "" });
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

  const fieldError = (key: keyof Values) => form.error(key) ?? serverErrors[key];
  const clearServer = (key: keyof Values) => setServerErrors(({ [key]: _, ...rest }) => rest);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!form.submit() || !form.output) return;
    setBusy(true);
    setFailure(null);
    const values = form.values;
    try {
      const body = { phone: values.phone.trim(), contactPreference: values.contactPreference as ContactPreference };
      if (editing) await customerApi.update(id, body);
      else await customerApi.create({ ...body, businessId: Number(values.businessId) });
      navigate(paths.customers);
      return;
    } catch (err) {
      const title = editing ? UPDATE_CUSTOMER_FAILED : CREATE_CUSTOMER_FAILED;
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length) setServerErrors(err.fields);
      const detail = err instanceof ApiError && (err.status === 400 || err.status === 409 || err.status === 404) ? err.message : undefined;
      setFailure({ title, detail: detail && detail !== title ? detail : undefined });
    }
    setBusy(false);
  }

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
              <Field label="Business" error={fieldError("businessId")} hint="The business this person is subscribing to.">
                {(wiring) => (
                  <select
                    {...wiring}
                    name="businessId"
                    value={form.values.businessId}
                    onChange={(e) => {
                      form.set("businessId", e.target.value);
                      clearServer("businessId");
                    }}
                    onBlur={() => form.touch("businessId")}
                  >
                    <option value="">Select a business</option>
                    {businesses.map((b) => (
                      <option key={b.id} value={String(b.id)}>
                        {b.name}
                        {b.isActive ? "" : " (inactive)"}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            <PhoneField
              label="Phone Number"
              hint="Any common format, e.g. (415) 555-0134 or +44 7911 123456."
              autoComplete="off"
              value={form.values.phone}
              error={fieldError("phone")}
              onChange={(value) => {
                form.set("phone", value);
                clearServer("phone");
              }}
              onBlur={() => form.touch("phone")}
            />
            <ContactPreferenceCards
              legend="Contact Preference"
              value={form.values.contactPreference}
              error={fieldError("contactPreference")}
              onChange={(value) => {
                form.set("contactPreference", value);
                form.touch("contactPreference");
              }}
              onBlur={() => form.touch("contactPreference")}
            />
            <FormActions cancelHref={paths.customers} saving={busy} valid={form.valid} label={editing ? "Update Customer" : "Add Customer"} />
          </form>
        )}
      </div>
    </section>
  );
}
