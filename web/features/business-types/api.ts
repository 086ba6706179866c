import type * as v from "valibot";
import type { BusinessType, businessTypeSchema } from "../../../src/schemas/business-types.ts";
import type { Page } from "../../../src/schemas/paging.ts";
import { api, idParam, LIST_PAGE_SIZE, listQuery } from "../../shared/api/client.ts";

/** The body of CreateBusinessType and UpdateBusinessType, as the server's schema reads it. */
export type BusinessTypeBody = Required<v.InferInput<typeof businessTypeSchema>>;

// The admin's business types (/api/businesstype/*); the business form's list of them is the businesses feature's.
export const businessTypeApi = {
  /** The admin's screen a page at a time; `q` searches the names. */
  page: ({ q }: { q: string }, cursor: string | null) =>
    api.get<Page<BusinessType>>(`/api/businesstype/ListBusinessTypes?${listQuery({ q: q.trim(), limit: LIST_PAGE_SIZE }, cursor)}`),
  get: (id: number | string) => api.get<BusinessType>(`/api/businesstype/GetBusinessTypeById?id=${idParam(id)}`),
  create: (body: BusinessTypeBody) => api.post<BusinessType>("/api/businesstype/CreateBusinessType", body),
  update: (id: number | string, body: BusinessTypeBody) => api.put<BusinessType>(`/api/businesstype/UpdateBusinessType?id=${idParam(id)}`, body),
  remove: (id: number | string) => api.del<{ message: string }>(`/api/businesstype/DeleteBusinessType?id=${idParam(id)}`),
};
