import type { RegistrationKit } from "../../../src/schemas/registration.ts";
import { api, idParam } from "../../shared/api/client.ts";

export const registrationApi = {
  /** The carrier registration kit of a business the caller manages (the owner's, or any for an admin). */
  kit: (businessId: number | string) => api.get<RegistrationKit>(`/api/business/GetRegistrationKit?id=${idParam(businessId)}`),
};
