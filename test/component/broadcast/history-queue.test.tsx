// A sending broadcast in the history says where it stands among the shops sending at the same time (issue 23, item 11).
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/history-queue.test.tsx
import { afterEach, expect, test } from "bun:test";
import { cleanup, render } from "@testing-library/react";
import { HistoryRow } from "../../../web/features/broadcast/components/HistoryRow.tsx";
import { broadcastSummary } from "./broadcast-screen.tsx";

afterEach(cleanup);

const sending = { state: "sending" as const, completedAt: null, queued: 48, delivered: 0, queueAhead: 2 };
const line = (over: Parameters<typeof broadcastSummary>[0]) =>
  render(<HistoryRow b={broadcastSummary(over)} retrying={false} onRetry={() => {}} onChanged={() => {}} />).queryByTestId("bc-queue")?.textContent ?? null;

test("nothing sent yet: 'Starts after 2 other shops'; once it sends: 'Sending alongside 2 other shops'", () => {
  expect(line(sending)).toBe("Starts after 2 other shops");
  cleanup();
  expect(line({ ...sending, queued: 40, delivered: 8 })).toBe("Sending alongside 2 other shops");
});

test("alone, or finished: no line", () => {
  expect(line({ ...sending, queueAhead: 0 })).toBeNull();
  cleanup();
  expect(line({})).toBeNull();
});
