import type { PublicUser } from "../../../src/schemas/auth.ts";
import { api } from "../../shared/api/client.ts";

// The admin's accounts (GET/POST/DELETE /api/user/...).
export const usersApi = {
  all: () => api.get<PublicUser[]>("/api/user/GetAllUsers"),
  pending: () => api.get<PublicUser[]>("/api/user/GetPendingUsers"),
  approve: (id: number) => api.post<PublicUser>(`/api/user/ApproveUser?id=${id}`),
  refuse: (id: number) => api.post<PublicUser>(`/api/user/RefuseUser?id=${id}`),
  remove: (id: number) => api.del<{ message: string }>(`/api/user/DeleteUser?id=${id}`),
};
