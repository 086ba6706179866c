import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { PendingApprovalNotice } from "../../shared/components/PendingApproval.tsx";
import { Link } from "wouter";
import type { CustomerView } from "../../../src/schemas/customer-admin.ts";
import { TextBudgetLine } from "./components/TextBudgetLine.tsx";
import { type CustomerFilters, customerApi } from "./api/customers.ts";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { paths } from "../../shared/paths.ts";
import { CustomerMessagesModal } from "./components/CustomerMessagesModal.tsx";
import "../../shared/styles/customers.css";
import { DeleteButton, ListPage } from "../../shared/components/ListPage.tsx";
import { useRowDelete } from "../../shared/components/useList.ts";
import { LoadMore } from "../../shared/components/LoadMore.tsx";
import { SEARCH_DELAY_MS } from "../../shared/components/SearchBox.tsx";
import { usePagedList } from "../../shared/components/usePagedList.ts";
import { isAdmin } from "../../shared/state/session.ts";
import { type BusinessOption, loadBusinessOptions } from "./CustomerForm.tsx";
import { ImportCustomersDialog } from "./ImportCustomers.tsx";
import { SubscriptionRequestsPanel } from "./SubscriptionRequests.tsx";

export const DELETE_CUSTOMER_FAILED = "Error deleting customer. Please try again.";
export const NO_CUSTOMERS = "No customers found.";
export const NO_MATCHES = "No customers match these filters.";
export const LOAD_MORE_FAILED = "Could not load more customers.";
export const CUSTOMER_NOUNS = ["customer", "customers"] as const;
const NO_FILTERS: CustomerFilters = { q: "", businessId: "", status: "" };

/** Search by phone, and filters by business and status; the search waits for a pause in typing. */
function CustomerFilterBar({ onChange }: { onChange: (f: CustomerFilters) => void }) {
  useSignals();
  const [q, setQ] = useState("");
  const [businessId, setBusinessId] = useState("");
  const [status, setStatus] = useState<CustomerFilters["status"]>("");
  const [businesses, setBusinesses] = useState<BusinessOption[]>([]);
  const admin = isAdmin.value;
  useEffect(() => {
    let live = true;
    loadBusinessOptions(admin).then(
      (list) => live && setBusinesses(list),
      (err) => live && console.error("Failed to load businesses", err),
    );
    return () => {
      live = false;
    };
  }, [admin]);
  useEffect(() => {
    const t = setTimeout(() => onChange({ q, businessId, status }), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
    // onChange is the page's setter (stable).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q, businessId, status]);
  return (
    <div className="cust-filters" role="search">
      <input
        className="input"
        type="search"
        inputMode="tel"
        aria-label="Search by phone"
        placeholder="Search by phone"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <select className="input" aria-label="Business" value={businessId} onChange={(e) => setBusinessId(e.target.value)}>
        <option value="">All businesses</option>
        {businesses.map((b) => (
          <option key={b.id} value={String(b.id)}>
            {b.name}
          </option>
        ))}
      </select>
      <select className="input" aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value as CustomerFilters["status"])}>
        <option value="">Any status</option>
        <option value="subscribed">Subscribed</option>
        <option value="unsubscribed">Unsubscribed</option>
        <option value="pending">Pending</option>
      </select>
    </div>
  );
}

/** Spec: "Created Date (short date)": en-US short date, e.g. 1/15/26. */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : new Intl.DateTimeFormat("en-US", { dateStyle: "short" }).format(d);
}

export function deleteConfirmText(phone: string): string {
  return `Are you sure you want to delete customer ${phone}?`;
}

function PreferenceBadge({ value }: { value: CustomerView["contactPreference"] }) {
  return value === "WhatsApp" ? <span className="badge badge-whatsapp">WhatsApp</span> : <span className="badge badge-info">SMS</span>;
}

/** The businesses the person belongs to (the viewer's), marking any they unsubscribed from. */
function Memberships({ customer }: { customer: CustomerView }) {
  if (customer.businesses.length === 0) return null;
  return (
    <span className="cust-businesses">
      {customer.businesses.map((b, i) => (
        <span key={b.id}>
          {i > 0 && ", "}
          {b.name}
          {b.status === "unsubscribed" && <span className="cust-unsub"> (unsubscribed)</span>}
        </span>
      ))}
    </span>
  );
}

export const OWNER_SUBTITLE = "People subscribed to your businesses.";
export const ADMIN_SUBTITLE = "People subscribed to all businesses on this server.";

export function CustomersListPage() {
  useSignals();
  const [filters, setFilters] = useState<CustomerFilters>(NO_FILTERS);
  const list = usePagedList(customerApi.page, filters, "customers");
  const { items: customers, loading, reload: load, failure } = list;
  const filtered = filters.q !== "" || filters.businessId !== "" || filters.status !== "";
  const [messagesFor, setMessagesFor] = useState<CustomerView | null>(null);
  const [importing, setImporting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { deleting, deleteRow } = useRowDelete(customerApi.remove, load, () => setError(DELETE_CUSTOMER_FAILED), { onStart: () => setError(null) });
  const onDelete = (customer: CustomerView) => deleteRow(customer.id, deleteConfirmText(customer.phone));

  return (
    <ListPage
      failure={failure}
      className="cust-page"
      title="Customers"
      subtitle={isAdmin.value ? ADMIN_SUBTITLE : OWNER_SUBTITLE}
      action={
        <div className="cust-header-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setImporting(true)}>
            Import CSV
          </button>
          <Link href={paths.customerAdd} className="btn btn-primary">
            + Add Customer
          </Link>
        </div>
      }
    >
      <PendingApprovalNotice />
      <TextBudgetLine refresh={customers.length} />
      <SubscriptionRequestsPanel onChanged={() => void load()} />

      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}

      <CustomerFilterBar onChange={setFilters} />

      {loading ? (
        <Spinner label="Loading customers..." />
      ) : customers.length === 0 && filtered ? (
        <div className="card empty-state cust-empty">
          <p>{NO_MATCHES}</p>
        </div>
      ) : customers.length === 0 ? (
        <div className="card empty-state cust-empty">
          <p>{NO_CUSTOMERS}</p>
          <Link href={paths.customerAdd} className="btn btn-secondary">
            Add the first one
          </Link>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table cust-table">
            <thead>
              <tr>
                <th scope="col">Phone Number</th>
                <th scope="col">Contact Preference</th>
                <th scope="col">Created Date</th>
                <th scope="col" className="cust-actions-head">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {customers.map((c) => (
                <tr key={c.id}>
                  <td data-label="Phone Number" className="cust-phone-cell">
                    <span className="cust-phone">{c.phone}</span>
                    {c.numberProblem && <span className="cust-number-problem">Never texted: {c.numberProblem}</span>}
                    {c.whatsappProblem && <span className="cust-number-problem">{c.whatsappProblem}</span>}
                    <Memberships customer={c} />
                  </td>
                  <td data-label="Contact Preference">
                    <PreferenceBadge value={c.contactPreference} />
                  </td>
                  <td data-label="Created Date">{shortDate(c.createdAt)}</td>
                  <td data-label="Actions">
                    <div className="actions">
                      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setMessagesFor(c)}>
                        Messages
                      </button>
                      <Link href={paths.customerEdit(c.id)} className="btn btn-secondary btn-sm">
                        Edit
                      </Link>
                      <DeleteButton label={`Delete ${c.phone}`} busy={deleting === c.id} disabled={deleting === c.id} onClick={() => void onDelete(c)} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore list={list} noun={CUSTOMER_NOUNS} failedText={LOAD_MORE_FAILED} />
        </div>
      )}
      {messagesFor && (
        <CustomerMessagesModal customerId={messagesFor.id} customerName={messagesFor.phone} businesses={messagesFor.businesses} onClose={() => setMessagesFor(null)} />
      )}
      {importing && <ImportCustomersDialog onClose={() => setImporting(false)} onImported={() => void load()} />}
    </ListPage>
  );
}
