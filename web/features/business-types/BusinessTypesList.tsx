import { useState } from "react";
import { Link } from "wouter";
import type { BusinessType } from "../../../src/schemas/business-types.ts";
import { ApiError } from "../../shared/api/client.ts";
import { businessTypeApi } from "./api.ts";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { paths } from "../../shared/paths.ts";
import "../../shared/styles/admin.css";
import { DeleteButton, ListPage } from "../../shared/components/ListPage.tsx";
import { LoadMore } from "../../shared/components/LoadMore.tsx";
import { SearchBox } from "../../shared/components/SearchBox.tsx";
import { useRowDelete } from "../../shared/components/useList.ts";
import { usePagedList } from "../../shared/components/usePagedList.ts";

export const DELETE_FAILED = "Error deleting business type. Please try again.";
export const MORE_TYPES_FAILED = "Could not load more business types.";
const TYPE_NOUNS = ["business type", "business types"] as const;

/** The created date as a short US date (11/22/26), the full date for a tooltip. */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString("en-US", { month: "numeric", day: "numeric", year: "2-digit" });
}

function longDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" });
}

/** Spec: a failed delete alerts the generic sentence, except a 409 (type in use), whose reason the server words. */
export function deleteErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 409 && err.message) return err.message;
  return DELETE_FAILED;
}

/** /business-types (admin): every type, active or not, a page at a time, with a search, edit and delete. */
export function BusinessTypesListPage() {
  const [filters, setFilters] = useState({ q: "" });
  const paged = usePagedList(businessTypeApi.page, filters, "business types");
  const { items: types, loading, reload: load, failure } = paged;
  const { deleting, deleteRow } = useRowDelete(businessTypeApi.remove, load, (err) => window.alert(deleteErrorMessage(err)), { oneAtATime: true });
  const onDelete = (type: BusinessType) => deleteRow(type.id, `Are you sure you want to delete the business type "${type.name}"?`);

  return (
    <ListPage
      failure={failure}
      className="admin-page"
      title="Business Types"
      subtitle="The categories owners pick from when they add a business."
      action={
        <Link href={paths.businessTypeAdd} className="btn btn-primary">
          <span aria-hidden="true">+</span> Add Business Type
        </Link>
      }
    >
      <SearchBox label="Search by name" onSearch={(q) => setFilters({ q: q.trim() })} />
      {loading ? (
        <Spinner label="Loading business types..." />
      ) : types.length === 0 && filters.q ? (
        <div className="card empty-state">
          <p>No business types match "{filters.q}".</p>
        </div>
      ) : types.length === 0 ? (
        <div className="card empty-state">
          <p>No business types found.</p>
          <Link href={paths.businessTypeAdd}>Add the first one</Link>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table admin-table">
            <caption className="sr-only">Business types</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Status</th>
                <th scope="col">Created Date</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {types.map((t) => (
                <tr key={t.id}>
                  <td data-label="Name" className="admin-name">
                    {t.name}
                  </td>
                  <td data-label="Description" className="admin-description">
                    {t.description ? (
                      <span className="admin-clamp" title={t.description}>
                        {t.description}
                      </span>
                    ) : (
                      <span className="muted admin-none">No description</span>
                    )}
                  </td>
                  <td data-label="Status">
                    <span className={`badge ${t.isActive ? "badge-success" : "badge-muted"}`}>{t.isActive ? "Active" : "Inactive"}</span>
                  </td>
                  <td data-label="Created Date" className="admin-date">
                    <time dateTime={t.createdAt} title={longDate(t.createdAt)}>
                      {shortDate(t.createdAt)}
                    </time>
                  </td>
                  <td data-label="Actions" className="admin-actions">
                    <div className="actions">
                      <Link href={paths.businessTypeEdit(t.id)} className="btn btn-secondary btn-sm" aria-label={`Edit ${t.name}`}>
                        Edit
                      </Link>
                      <DeleteButton label={`Delete ${t.name}`} busy={deleting === t.id} disabled={deleting !== null} onClick={() => void onDelete(t)} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore list={paged} noun={TYPE_NOUNS} failedText={MORE_TYPES_FAILED} />
        </div>
      )}
    </ListPage>
  );
}
