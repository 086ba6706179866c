import type { PublicUser } from "../../../src/schemas/auth.ts";
import { api } from "./client.ts";

// The session's own calls (state/session.ts): signing in and out, and who is signed in.
export const sessionApi = {
  login: (email: string, password: string) => api.post<{ token: string; user: PublicUser }>("/api/auth/Login", { email, password }),
  currentUser: () => api.get<PublicUser>("/api/auth/GetCurrentUser"),
  logout: () => api.post<{ message: string }>("/api/auth/Logout"),
};
