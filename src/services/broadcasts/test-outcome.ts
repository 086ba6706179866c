// The outcome of a test message (issue 23 item 6): the status callback of its send (…/status?test=<id>) moves its
// test_sends row forward, and the owner reads it back (GET /api/broadcast/TestStatus, `nearcast broadcast test`).
import type { Clock } from "../../clock.ts";
import { NotFoundError } from "../../errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { StatusUpdate } from "../../messaging/messenger.ts";
import { STATUS_WEBHOOK_PATH } from "../../messaging/messenger.ts";
import type { Repos } from "../../repos/index.ts";
import type { TestSendRow } from "../../repos/test-sends.ts";
import { parseIdText } from "../../schemas/ids.ts";
import type { TestStatus } from "../../schemas/test-send.ts";
import { canManage, type Principal } from "../principal.ts";

export const TEST_NOT_FOUND = "Test message not found.";

/** The status callback of one test send: the webhook finds its row by this id. */
export const testCallbackPath = (testId: number) => `${STATUS_WEBHOOK_PATH}?test=${testId}`;

/** The test id in a callback URL made by testCallbackPath(); null when absent or malformed. */
export function testIdOf(callback: string | null | undefined): number | null {
  return parseIdText(callback ? /[?&]test=([^&#]*)/.exec(callback)?.[1] : undefined);
}

export function toTestStatus(row: TestSendRow): TestStatus {
  return {
    id: row.id,
    channel: row.channel,
    to: row.toPhone,
    contentSid: row.contentSid,
    status: row.status,
    providerStatus: row.providerStatus,
    reason: row.status === "Failed" ? (row.errorMessage ?? "Not delivered") : null,
    final: row.status === "Delivered" || row.status === "Failed",
  };
}

/** A status callback about a test send: forward only, and only for the message it was sent as. */
export function applyTestCallback(deps: { repos: Repos; clock: Clock; logger: Logger }, testId: number, update: StatusUpdate, reason: string | null): boolean {
  const row = deps.repos.testSends.findById(testId);
  if (!row || (row.providerId && row.providerId !== update.providerId)) {
    deps.logger.warn(`status callback for test ${testId} (${update.providerId}) matches no test message; ignored`);
    return false;
  }
  if (update.status === null || update.status === "Queued") return false;
  return deps.repos.testSends.advance(
    row.id,
    { status: update.status, providerId: update.providerId, providerStatus: update.providerStatus, errorCode: update.errorCode, errorMessage: update.status === "Failed" ? (reason ?? "Not delivered") : null },
    deps.clock.now(),
  );
}

export function createTestOutcomeService({ repos }: { repos: Repos }) {
  return {
    /** GET TestStatus: the caller's own test (an admin's: any); 404 otherwise. */
    status(actor: Principal, id: number): TestStatus {
      const row = repos.testSends.findById(id);
      if (!row || !canManage(actor, row)) throw new NotFoundError(TEST_NOT_FOUND);
      return toTestStatus(row);
    },
  };
}

export type TestOutcomeService = ReturnType<typeof createTestOutcomeService>;
