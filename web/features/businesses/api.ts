import type * as v from "valibot";
import type { BusinessType } from "../../../src/schemas/business-types.ts";
import type { Business, PublicBusiness, businessSchema } from "../../../src/schemas/businesses.ts";
import type { Page } from "../../../src/schemas/paging.ts";
import { api, idParam, LIST_PAGE_SIZE, listQuery } from "../../shared/api/client.ts";

// Typed wrappers for the spec's /api/business/* calls (section 7) this feature alone makes; the reads other features
// share (GetBusinessById, GetMyBusinesses, GetAllBusinesses) are shared/api/businesses.ts.

/** The body of CreateBusiness and UpdateBusiness: every field the server's schema reads. */
export type BusinessBody = Required<v.InferInput<typeof businessSchema>>;

function upload(path: string, file: File): Promise<{ filePath: string }> {
  const form = new FormData();
  form.append("file", file, file.name);
  return api.post<{ filePath: string }>(path, form);
}

export const businessApi = {
  /** The public list a page at a time, by name; `q` searches the names. */
  pagePublic: ({ q }: { q: string }, cursor: string | null) =>
    api.get<Page<PublicBusiness>>(`/api/business/ListBusinesses?${listQuery({ q: q.trim(), limit: LIST_PAGE_SIZE }, cursor)}`),
  /** Active subscribers of each of the caller's businesses (the My Business cards). */
  subscriberCounts: () => api.get<{ businessId: number; subscribers: number }[]>("/api/business/GetMySubscriberCounts"),
  /** Every business type (the form's dropdown). */
  types: () => api.get<BusinessType[]>("/api/businesstype/GetAllBusinessTypes"),
  create: (body: BusinessBody) => api.post<Business>("/api/business/CreateBusiness", body),
  update: (id: number | string, body: BusinessBody) => api.put<Business>(`/api/business/UpdateBusiness?id=${idParam(id)}`, body),
  remove: (id: number | string) => api.del<{ message: string }>(`/api/business/DeleteBusiness?id=${idParam(id)}`),
  /** The business's consent events as CSV text (owner or admin). */
  exportConsent: (id: number | string) => api.get<string>(`/api/business/ExportConsent?id=${idParam(id)}`),
  uploadLogo: (file: File) => upload("/api/business/UploadLogo", file),
  uploadSampleImage: (file: File) => upload("/api/business/UploadSampleImage", file),
  deleteLogo: (fileName: string) => api.del<{ message: string }>(`/api/business/DeleteLogo?fileName=${idParam(fileName)}`),
  deleteSampleImage: (fileName: string) => api.del<{ message: string }>(`/api/business/DeleteSampleImage?fileName=${idParam(fileName)}`),
};
