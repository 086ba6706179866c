import { Link } from "wouter";
import { usersApi } from "../api.ts";
import { ApprovalButtons } from "../UsersPage.tsx";
import { paths } from "../../../shared/paths.ts";
import { useList } from "../../../shared/components/useList.ts";

/** The admin's home: owners waiting for approval, each with Approve and Refuse; nothing when none waits. */
export function PendingOwners() {
  const { items, loading, reload, failure } = useList(usersApi.pending, "owners waiting for approval");
  if (loading || failure || items.length === 0) return null;
  return (
    <section className="container pending-owners" aria-labelledby="pending-owners-title">
      <div className="card pending-owners-card">
        <h2 id="pending-owners-title">Owners waiting for approval</h2>
        <p className="muted">Nothing is texted for these accounts until you approve them. All accounts are on the <Link href={paths.users}>Users</Link> screen.</p>
        <ul className="pending-owners-list">
          {items.map((u) => (
            <li key={u.id} className="pending-owners-row" data-testid={`pending-${u.id}`}>
              <span>
                <strong>{u.firstName} {u.lastName}</strong> <span className="muted">{u.email}</span>
              </span>
              <span className="actions">
                <ApprovalButtons user={u} onDone={reload} />
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
