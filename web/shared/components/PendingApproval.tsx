import { useSignals } from "@preact/signals-react/runtime";
import { PENDING_NOTICE, PENDING_NOTICE_TITLE } from "../../../src/schemas/owner-approval.ts";
import { currentUser } from "../state/session.ts";
import "../styles/admin.css";

/** Whether the signed-in account waits for the admin's approval (nothing is texted for it until then). */
export function isPendingOwner(): boolean {
  return currentUser.value?.status === "pending";
}

/** The plain notice a pending owner sees on the home, broadcast and customers screens: why nothing is sent. */
export function PendingApprovalNotice() {
  useSignals();
  if (!isPendingOwner()) return null;
  return (
    <div className="alert alert-warning pending-notice" role="status" data-testid="pending-approval">
      <strong>{PENDING_NOTICE_TITLE}</strong>
      <p>{PENDING_NOTICE}</p>
    </div>
  );
}
