/** What one dispatcher did since it started (for logs, the CLI and tests). */
export interface DispatcherStats {
  started: number;
  sent: number;
  failed: number;
  optedOut: number;
  requeued: number;
  uncertain: number;
  reconciled: number;
  skipped: number;
  /** Deliveries found Sending at start: in flight when the previous dispatcher died. */
  recovered: number;
  /** When the send loop last went round (its clock, ms): a loop that stopped turning is broken (GET /api/health). */
  lastTickAt: number | null;
}

export function emptyStats(): DispatcherStats {
  return { started: 0, sent: 0, failed: 0, optedOut: 0, requeued: 0, uncertain: 0, reconciled: 0, skipped: 0, recovered: 0, lastTickAt: null };
}
