// What became of a test once the provider took it (issue 23 item 6): the panel reads GET TestStatus every 2 s until
// it is Delivered or Failed (the status callbacks move it), for about a minute, and shows "Delivered" or
// "Failed: <reason>" (or where it still is).
import { useEffect, useState } from "react";
import { type TestStatus, testOutcomeText } from "../../../../src/schemas/test-send.ts";
import { beforeSendApi } from "../api/before-send.ts";

export const TEST_POLL_MS = 2000;
/** About a minute: a delivery report usually comes within seconds, and some carriers never send one. */
export const MAX_TEST_POLLS = 30;

/** The latest status of test `testId` (null until read), read again until it is final. */
export function useTestOutcome(testId: number | null): TestStatus | null {
  const [status, setStatus] = useState<TestStatus | null>(null);
  useEffect(() => {
    setStatus(null);
    if (testId === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let polls = 0;
    async function tick() {
      polls++;
      try {
        const s = await beforeSendApi.testStatus(testId!);
        if (stopped) return;
        setStatus(s);
        if (s.final) return;
      } catch (err) {
        if (stopped) return;
        console.error("Error reading the test's status:", err);
      }
      if (polls < MAX_TEST_POLLS) timer = setTimeout(() => void tick(), TEST_POLL_MS);
    }
    void tick();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [testId]);
  return status;
}

export function TestOutcomeLine({ status }: { status: TestStatus | null }) {
  if (!status) return null;
  const failed = status.status === "Failed";
  return (
    <p className={`bc-test-delivery ${failed ? "is-failed" : status.status === "Delivered" ? "is-ok" : ""}`} role="status" data-testid="test-delivery">
      {testOutcomeText(status)}
    </p>
  );
}
