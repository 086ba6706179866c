import { useState } from "react";
import { Link } from "wouter";
import type { CustomerView } from "../../../src/schemas/customer-admin.ts";
import { customerApi } from "../../api/customers.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { paths } from "../../paths.ts";
import { CustomerMessagesModal } from "../../components/CustomerMessagesModal.tsx";
import "../../styles/customers.css";
import { DeleteButton, ListPage } from "../../components/ListPage.tsx";
import { useList, useRowDelete } from "../../components/useList.ts";
import { SubscriptionRequestsPanel } from "./SubscriptionRequests.tsx";

export const DELETE_CUSTOMER_FAILED = "Error deleting customer. Please try again.";
export const NO_CUSTOMERS = "No customers found.";

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

export function CustomersListPage() {
  const { items: customers, loading, reload: load, failure } = useList(customerApi.list, "customers");
  const [messagesFor, setMessagesFor] = useState<CustomerView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { deleting, deleteRow } = useRowDelete(customerApi.remove, load, () => setError(DELETE_CUSTOMER_FAILED), { onStart: () => setError(null) });
  const onDelete = (customer: CustomerView) => deleteRow(customer.id, deleteConfirmText(customer.phone));

  return (
    <ListPage
      failure={failure}
      className="cust-page"
      title="Customers"
      subtitle="People subscribed to your businesses."
      action={
        <Link href={paths.customerAdd} className="btn btn-primary">
          + Add Customer
        </Link>
      }
    >
      <SubscriptionRequestsPanel onChanged={() => void load()} />

      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}

      {loading ? (
        <Spinner label="Loading customers..." />
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
        </div>
      )}
      {messagesFor && (
        <CustomerMessagesModal customerId={messagesFor.id} customerName={messagesFor.phone} onClose={() => setMessagesFor(null)} />
      )}
    </ListPage>
  );
}
