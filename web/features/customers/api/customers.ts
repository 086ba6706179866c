import type * as v from "valibot";
import type { CustomerView, createCustomerSchema } from "../../../../src/schemas/customer-admin.ts";
import type { CustomerPage } from "../../../../src/schemas/customer-pages.ts";
import type { customerSchema } from "../../../../src/schemas/customers.ts";
import { api, ApiError, CONNECTION_ERROR, idParam, listQuery, refusal, sessionHeaders } from "../../../shared/api/client.ts";
import type { ImportLine, ImportSummary } from "../../../../src/schemas/customer-import.ts";

// Typed wrappers for /api/customer/* (spec section 7); the businesses to choose from are shared/api/businesses.ts.

/** The body of UpdateCustomer, as the server's schema outputs it. */
export type CustomerBody = v.InferOutput<typeof customerSchema>;
/** CreateCustomer also names which of the owner's businesses the person joins. */
export type CreateCustomerBody = v.InferOutput<typeof createCustomerSchema>;

/** The Customers screen's filters; "" = any. */
export interface CustomerFilters {
  q: string;
  businessId: string;
  status: "" | "subscribed" | "unsubscribed" | "pending";
}
export const CUSTOMERS_PER_PAGE = 50;

export const customerApi = {
  /** One page of the Customers screen (keyset; `cursor` from the previous page); `limit` for a short look-up. */
  page: (filters: CustomerFilters, cursor: string | null, limit = CUSTOMERS_PER_PAGE) => {
    const search = filters.q.replace(/\D/g, "") ? filters.q.trim() : null;
    const query = listQuery({ limit, q: search, businessId: filters.businessId, status: filters.status }, cursor);
    return api.get<CustomerPage>(`/api/customer/ListCustomers?${query}`);
  },
  get: (id: number | string) => api.get<CustomerView>(`/api/customer/GetCustomerById?id=${idParam(id)}`),
  create: (body: CreateCustomerBody) => api.post<CustomerView>("/api/customer/CreateCustomer", body),
  update: (id: number | string, body: CustomerBody) => api.put<CustomerView>(`/api/customer/UpdateCustomer?id=${idParam(id)}`, body),
  remove: (id: number | string) => api.del<{ message: string }>(`/api/customer/DeleteCustomer?id=${idParam(id)}`),
};

/**
 * Uploads a customers CSV into a business (POST ImportCustomers) and follows its NDJSON answer: `onProgress` after
 * each chunk written, then the summary. A refusal (4xx) or a failure half-way throws an ApiError with the server's
 * sentence.
 */
export async function importCustomersCsv(
  businessId: number | string,
  file: File,
  welcome: boolean,
  onProgress: (progress: { done: number; total: number }) => void,
): Promise<ImportSummary> {
  const query = listQuery({ businessId, fileName: file.name, welcome: welcome ? 1 : null }, null);
  let res: Response;
  try {
    res = await fetch(`/api/customer/ImportCustomers?${query}`, {
      method: "POST",
      headers: { ...sessionHeaders("POST"), "Content-Type": "text/csv" },
      body: file,
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, CONNECTION_ERROR, null);
  }
  if (!res.ok || !res.body) throw await refusal(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  for (;;) {
    let chunk: { done: boolean; value?: string };
    try {
      chunk = await reader.read();
    } catch {
      throw new ApiError(0, CONNECTION_ERROR, null);
    }
    pending += chunk.value ?? "";
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const text of lines.filter((l) => l.trim() !== "")) {
      const line = JSON.parse(text) as ImportLine;
      if ("progress" in line) onProgress(line.progress);
      else if ("summary" in line) return line.summary;
      else throw new ApiError(500, line.error, line);
    }
    // The connection ended before the summary: what was written stays; the file can be uploaded again.
    if (chunk.done) throw new ApiError(0, CONNECTION_ERROR, null);
  }
}
