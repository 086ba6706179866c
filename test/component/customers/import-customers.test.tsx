// The Customers screen's CSV import (issue 12 item 3): choose a business and a file, watch the rows go in, read the
// summary with the line numbers of what was left out; a refusal says why and writes nothing.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/customers/import-customers.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import type { ImportSummary } from "../../../src/schemas/customer-import.ts";
import { CHOOSE_FILE, IMPORT_FAILED, ImportCustomersDialog, summaryText } from "../../../web/features/customers/ImportCustomers.tsx";
import { clearSession } from "../../../web/shared/state/session.ts";
import { mockApi } from "../../helpers/mock-api.ts";

const api = mockApi();
let imported = 0;
let closed = 0;
beforeEach(() => {
  imported = 0;
  closed = 0;
  clearSession();
  localStorage.setItem("token", "owner-token");
  document.cookie = "XSRF-TOKEN=xsrf-1";
  api.routes["GET /api/business/GetMyBusinesses"] = { body: [{ id: 3, name: "Sunrise Bakery", isActive: true }] };
});
afterEach(() => cleanup());

const SUMMARY: ImportSummary = {
  business: { id: 3, name: "Sunrise Bakery" },
  added: [{ line: 2, phone: "+14155550150" }, { line: 4, phone: "+14155550152" }],
  readded: [],
  already: [{ line: 5, phone: "+14155550134" }],
  skipped: [{ line: 6, phone: "+14155550150", reason: "same number as line 2" }],
  invalid: [{ line: 3, message: "Please enter a valid phone number", value: "555-12" }],
};

/** A stream the test writes NDJSON lines into, one at a time. */
function lineStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { stream, send: (line: unknown) => controller.enqueue(new TextEncoder().encode(`${JSON.stringify(line)}\n`)), end: () => controller.close() };
}

async function openWithFile(csv = "phone,contactPreference\n4155550150,SMS\n") {
  const view = render(<ImportCustomersDialog onClose={() => void closed++} onImported={() => void imported++} />);
  await waitFor(() => expect((view.getByLabelText("Business") as HTMLSelectElement).value).toBe("3"));
  const file = new File([csv], "spring list.csv", { type: "text/csv" });
  fireEvent.change(view.getByLabelText("CSV file"), { target: { files: [file] } });
  return view;
}

describe("ImportCustomersDialog", () => {
  test("uploads the file as text/csv with the session's headers; shows rows written as they come; ends with the summary and the lines left out", async () => {
    const lines = lineStream();
    api.routes["POST /api/customer/ImportCustomers"] = { stream: lines.stream, headers: { "content-type": "application/x-ndjson" } };
    const view = await openWithFile();
    fireEvent.click(view.getByLabelText(/welcome text/));
    await act(async () => void fireEvent.click(view.getByRole("button", { name: "Import" })));
    const call = api.calls.find((c) => c.method === "POST")!;
    expect(call.url).toBe("/api/customer/ImportCustomers?businessId=3&fileName=spring+list.csv&welcome=1");
    expect(call.headers["content-type"]).toBe("text/csv");
    expect(call.headers.authorization).toBe("Bearer owner-token");
    expect(call.headers["x-xsrf-token"]).toBe("xsrf-1");
    expect(call.body).toBeInstanceOf(File);
    expect(view.getByRole("button", { name: "Importing..." })).toBeTruthy();

    await act(async () => lines.send({ progress: { done: 250, total: 600 } }));
    await waitFor(() => expect(view.getByTestId("import-progress").textContent).toBe("250 of 600 rows imported"));
    expect((view.getByLabelText("Import progress") as HTMLProgressElement).value).toBe(250);
    await act(async () => {
      lines.send({ summary: SUMMARY });
      lines.end();
    });
    await waitFor(() => expect(view.getByTestId("import-summary").textContent).toBe(summaryText(SUMMARY)));
    expect(summaryText(SUMMARY)).toBe("2 added, 0 re-added, 1 already subscribed, 1 skipped, 1 invalid row");
    // The refused value as the file held it, then why (issue 23).
    expect(view.getByText('Line 3: "555-12" (Please enter a valid phone number)')).toBeTruthy();
    expect(view.getByText("Line 6: +14155550150 same number as line 2")).toBeTruthy();
    expect(imported).toBe(1);
    fireEvent.click(view.getByRole("button", { name: "Close" }));
    expect(closed).toBe(1);
  });

  test("no file chosen: says so and sends nothing", async () => {
    const view = render(<ImportCustomersDialog onClose={() => {}} onImported={() => {}} />);
    await waitFor(() => expect((view.getByLabelText("Business") as HTMLSelectElement).value).toBe("3"));
    fireEvent.click(view.getByRole("button", { name: "Import" }));
    expect(view.getByRole("alert").textContent).toBe(CHOOSE_FILE);
    expect(api.calls.filter((c) => c.method === "POST")).toEqual([]);
  });

  test("a refusal (400: no header line) shows the server's sentence; the form stays to try another file; nothing reloads", async () => {
    api.routes["POST /api/customer/ImportCustomers"] = { status: 400, body: { error: 'spring list.csv: the first line must be the header "phone,contactPreference"', code: "validation_failed" } };
    const view = await openWithFile("name\nRosa\n");
    await act(async () => void fireEvent.click(view.getByRole("button", { name: "Import" })));
    await waitFor(() => expect(view.getByRole("alert").textContent).toContain("the first line must be the header"));
    expect(view.getByRole("button", { name: "Import" })).toBeTruthy();
    expect(imported).toBe(0);
  });

  test("a failure half-way (the error line) says rows written are kept; the list behind reloads", async () => {
    const lines = lineStream();
    api.routes["POST /api/customer/ImportCustomers"] = { stream: lines.stream };
    const view = await openWithFile();
    await act(async () => void fireEvent.click(view.getByRole("button", { name: "Import" })));
    await act(async () => {
      lines.send({ progress: { done: 250, total: 600 } });
      lines.send({ error: "Something went wrong on our side. Please try again.", code: "internal" });
      lines.end();
    });
    await waitFor(() => expect(view.getByRole("alert").textContent).toBe(IMPORT_FAILED));
    expect(imported).toBe(1);
  });
});
