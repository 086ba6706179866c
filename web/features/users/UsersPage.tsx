import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import type { PublicUser } from "../../../src/schemas/auth.ts";
import type { UserStatus } from "../../../src/schemas/owner-approval.ts";
import { ApiError } from "../../shared/api/client.ts";
import { usersApi } from "./api.ts";
import { DeleteButton, ListPage } from "../../shared/components/ListPage.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { useList, useRowDelete } from "../../shared/components/useList.ts";
import { currentUser } from "../../shared/state/session.ts";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/admin.css";

export const STATUS_LABELS: Record<UserStatus, string> = { approved: "Approved", pending: "Waiting for approval", refused: "Refused" };
const STATUS_BADGES: Record<UserStatus, string> = { approved: "badge-success", pending: "badge-warning", refused: "badge-muted" };
export const ACTION_FAILED = "Could not change the account. Please try again.";

/** What a failed approve, refuse or delete says: the server's reason when it gives one (your own account, the last
 * admin), else a plain sentence. */
export function actionError(err: unknown): string {
  return err instanceof ApiError && err.status !== 0 && err.status < 500 && err.message ? err.message : ACTION_FAILED;
}

export const deleteQuestion = (u: PublicUser) =>
  `Delete the account ${u.email}? Its businesses, customer lists, broadcasts and images are deleted with it. This cannot be undone.`;

/** The badge of an account's state (Approved, Waiting for approval, Refused). */
export function StatusBadge({ status }: { status: UserStatus }) {
  return <span className={`badge ${STATUS_BADGES[status]}`}>{STATUS_LABELS[status]}</span>;
}

/**
 * Approve and refuse, for one account (the Users screen and the home page's pending owners): disabled while one of
 * them runs; `onDone` reloads the list that shows it.
 */
export function ApprovalButtons({ user, onDone }: { user: PublicUser; onDone: () => Promise<void> | void }) {
  const [busy, setBusy] = useState<"approve" | "refuse" | null>(null);
  const name = `${user.firstName} ${user.lastName}`;
  async function run(kind: "approve" | "refuse") {
    setBusy(kind);
    try {
      const changed = kind === "approve" ? await usersApi.approve(user.id) : await usersApi.refuse(user.id);
      notify.success(kind === "approve" ? "Account Approved" : "Account Refused", kind === "approve" ? `${changed.email} can send now.` : `${changed.email} can no longer sign in.`);
      await onDone();
    } catch (err) {
      notify.error("Not Changed", actionError(err));
    } finally {
      setBusy(null);
    }
  }
  const status = user.status ?? "approved";
  return (
    <>
      {status !== "approved" && (
        <button type="button" className="btn btn-primary btn-sm" aria-label={`Approve ${name}`} disabled={busy !== null} aria-busy={busy === "approve"} onClick={() => void run("approve")}>
          {busy === "approve" ? "Approving..." : "Approve"}
        </button>
      )}
      {status !== "refused" && (
        <button type="button" className="btn btn-secondary btn-sm" aria-label={`Refuse ${name}`} disabled={busy !== null} aria-busy={busy === "refuse"} onClick={() => void run("refuse")}>
          {busy === "refuse" ? "Refusing..." : "Refuse"}
        </button>
      )}
    </>
  );
}

/** /users (admin): every account with its role and state; approve, refuse, delete (after a confirmation). */
export function UsersPage() {
  useSignals();
  const { items: users, loading, reload, failure } = useList(usersApi.all, "accounts");
  const { deleting, deleteRow } = useRowDelete(usersApi.remove, reload, (err) => notify.error("Not Deleted", actionError(err)), { oneAtATime: true });
  const me = currentUser.value?.id;
  const pendingCount = users.filter((u) => u.status === "pending").length;

  return (
    <ListPage
      failure={failure}
      className="admin-page users-page"
      title="Users"
      subtitle={
        pendingCount > 0
          ? `${pendingCount} ${pendingCount === 1 ? "owner is" : "owners are"} waiting for your approval: nothing is texted for them until you approve.`
          : "Every account on this server. Nothing is texted for an owner until you approve them; a refused account cannot sign in."
      }
      action={null}
    >
      {loading ? (
        <Spinner label="Loading accounts..." />
      ) : (
        <div className="table-wrap">
          <table className="table admin-table">
            <caption className="sr-only">Accounts</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => {
                const name = `${u.firstName} ${u.lastName}`;
                const self = u.id === me;
                return (
                  <tr key={u.id} data-testid={`user-${u.id}`}>
                    <td data-label="Name" className="admin-name">
                      {name}
                      {self && <span className="muted"> (you)</span>}
                    </td>
                    <td data-label="Email">{u.email}</td>
                    <td data-label="Role">{u.role === "admin" ? "Admin" : "Owner"}</td>
                    <td data-label="State">
                      <StatusBadge status={u.status ?? "approved"} />
                    </td>
                    <td data-label="Actions" className="admin-actions">
                      {!self && (
                        <div className="actions">
                          <ApprovalButtons user={u} onDone={reload} />
                          <DeleteButton label={`Delete ${name}`} busy={deleting === u.id} disabled={deleting !== null} onClick={() => void deleteRow(u.id, deleteQuestion(u))} />
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </ListPage>
  );
}
