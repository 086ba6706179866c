import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import type { Business } from "../../../src/schemas/businesses.ts";
import { UNKNOWN_TYPE } from "../../../src/schemas/texts.ts";
import { businessReadApi } from "../../shared/api/businesses.ts";
import { businessApi } from "./api.ts";
import { BusinessAvatar } from "./components/BusinessAvatar.tsx";
import { QrModal } from "./components/QrModal.tsx";
import { DeleteBusinessDialog } from "./components/DeleteBusinessDialog.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { paths } from "../../shared/paths.ts";
import { saveTextFile } from "../../shared/save-file.ts";
import { isAuthenticated } from "../../shared/state/session.ts";
import "../../shared/styles/businesses.css";
import { DeleteButton, ListPage } from "../../shared/components/ListPage.tsx";
import { useList, useRowDelete } from "../../shared/components/useList.ts";

export const DELETE_FAILED = "Error deleting business. Please try again.";

/** "Nov 22, 2026" */
/** Saves the business's consent evidence as a file. */
export async function exportConsent(b: Pick<Business, "id" | "name">): Promise<void> {
  try {
    saveTextFile(await businessApi.exportConsent(b.id), `consent-business-${b.id}.csv`);
  } catch (err) {
    window.alert(`Could not export the consent of ${b.name}. ${err instanceof Error ? err.message : ""}`.trim());
  }
}

export function createdDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
}

function ActionIcon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={d} />
    </svg>
  );
}

const ICONS = {
  broadcast: "M3 11v2a1 1 0 0 0 1 1h2l5 4V6L6 10H4a1 1 0 0 0-1 1zM15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13",
  edit: "M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z",
  qr: "M3 3h7v7H3zM14 3h7v7h-7zM3 14h7v7H3zM14 14h3v3h-3zM21 14v.01M14 21h.01M17.5 21H21v-3.5",
  delete: "M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6",
};

/**
 * Active subscribers of each card's business, in one request once the cards are there (again when they change);
 * null until it answers or when it fails (the cards then show no count, not a wrong one).
 */
function useSubscriberCounts(enabled: boolean, list: Business[]): Map<number, number> | null {
  const [counts, setCounts] = useState<Map<number, number> | null>(null);
  useEffect(() => {
    if (!enabled || list.length === 0) return;
    let live = true;
    businessApi.subscriberCounts().then(
      (rows) => live && setCounts(new Map(rows.map((r) => [r.businessId, r.subscribers]))),
      (err) => live && console.error("Error loading subscriber counts:", err),
    );
    return () => {
      live = false;
    };
  }, [enabled, list]);
  return counts;
}

export const subscribersText = (n: number) => `${n.toLocaleString("en-US")} subscriber${n === 1 ? "" : "s"}`;

/** /my-business: the user's own businesses with Broadcast, Edit, QR Code and Delete. */
export function MyBusinessPage() {
  useSignals();
  const loggedIn = isAuthenticated.value;
  const { items: list, loading, reload: load, failure } = useList(businessReadApi.listMine, "businesses");
  const [qrFor, setQrFor] = useState<Business | null>(null);
  const counts = useSubscriberCounts(loggedIn, list);

  const [deleteAsked, setDeleteAsked] = useState<Business | null>(null);
  const { deleting, removeRow } = useRowDelete(
    businessApi.remove,
    load,
    (err) => {
      console.error("Error deleting business:", err);
      window.alert(DELETE_FAILED);
    },
    { oneAtATime: true },
  );
  const onDelete = (b: Business) => setDeleteAsked(b);

  return (
    <ListPage
      failure={failure}
      className="biz-page"
      headerClassName="biz-header"
      title="My Business"
      subtitle="Share your QR code, and send offers to everyone who subscribed."
      action={
        loggedIn && (
          <Link href={paths.businessAdd} className="btn btn-primary">
            <span aria-hidden="true">+</span> Add Business
          </Link>
        )
      }
    >

      {loading ? (
        <Spinner label="Loading your businesses..." />
      ) : list.length === 0 ? (
        <div className="card empty-state biz-empty">
          <p className="biz-empty-title">You have not added a business yet.</p>
          <p>Add your business to get a QR code poster and start collecting subscribers.</p>
          {loggedIn && (
            <Link href={paths.businessAdd} className="btn btn-primary">
              Add Business
            </Link>
          )}
        </div>
      ) : (
        <ul className="biz-grid" aria-label="Your businesses">
          {list.map((b) => (
            <li key={b.id} className="card biz-card biz-card-owner">
              <div className="biz-card-top">
                <BusinessAvatar name={b.name} logo={b.logoImagePath} max={2} className="biz-avatar-md" />
                <div className="biz-card-heading">
                  <h2 className="biz-name">{b.name}</h2>
                  <p className="biz-type">{b.businessType?.name ?? UNKNOWN_TYPE}</p>
                </div>
                <span className={`badge ${b.isActive ? "badge-success" : "badge-muted"} biz-status`}>{b.isActive ? "Active" : "Inactive"}</span>
              </div>
              <dl className="biz-facts">
                <div>
                  <dt>Address</dt>
                  <dd>{b.address}</dd>
                </div>
                <div>
                  <dt>Phone</dt>
                  <dd>{b.phone}</dd>
                </div>
                {counts && (
                  <div>
                    <dt>Subscribers</dt>
                    <dd data-testid="subscribers">{subscribersText(counts.get(b.id) ?? 0)}</dd>
                  </div>
                )}
                <div>
                  <dt>Created</dt>
                  <dd>
                    <time dateTime={b.createdAt}>{createdDate(b.createdAt)}</time>
                  </dd>
                </div>
              </dl>
              {loggedIn ? (
                <div className="biz-actions">
                  <Link href={paths.broadcast(b.id)} className="btn btn-primary btn-sm biz-action-main" aria-label={`Broadcast to subscribers of ${b.name}`}>
                    <ActionIcon d={ICONS.broadcast} /> Broadcast
                  </Link>
                  <Link href={paths.businessDashboard(b.id)} className="btn btn-secondary btn-sm" aria-label={`Dashboard of ${b.name}`}>
                    Dashboard
                  </Link>
                  <Link href={paths.businessEdit(b.id)} className="btn btn-secondary btn-sm" aria-label={`Edit ${b.name}`}>
                    <ActionIcon d={ICONS.edit} /> Edit
                  </Link>
                  <button type="button" className="btn btn-secondary btn-sm" aria-label={`QR Code of ${b.name}`} onClick={() => setQrFor(b)}>
                    <ActionIcon d={ICONS.qr} /> QR Code
                  </button>
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    aria-label={`Export consent (CSV) of ${b.name}`}
                    onClick={() => void exportConsent(b)}
                  >
                    Export consent (CSV)
                  </button>
                  <Link href={paths.registration(b.id)} className="btn btn-secondary btn-sm" aria-label={`Carrier registration of ${b.name}`}>
                    Carrier registration
                  </Link>
                  <DeleteButton
                    label={`Delete ${b.name}`}
                    busy={deleting === b.id}
                    disabled={deleting !== null}
                    onClick={() => void onDelete(b)}
                    icon={<ActionIcon d={ICONS.delete} />}
                  />
                </div>
              ) : (
                <div className="biz-actions">
                  <button type="button" className="btn btn-accent btn-block" onClick={() => setQrFor(b)}>
                    Subscribe
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      {qrFor && <QrModal business={qrFor} onClose={() => setQrFor(null)} />}
      {deleteAsked && (
        <DeleteBusinessDialog
          business={deleteAsked}
          subscribers={counts ? (counts.get(deleteAsked.id) ?? 0) : null}
          onCancel={() => setDeleteAsked(null)}
          onConfirm={() => {
            setDeleteAsked(null);
            void removeRow(deleteAsked.id);
          }}
        />
      )}
    </ListPage>
  );
}
