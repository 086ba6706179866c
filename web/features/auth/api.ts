import type * as v from "valibot";
import type { PublicUser, registerSchema } from "../../../src/schemas/auth.ts";
import type { SetupBody } from "../../../src/schemas/setup.ts";
import { api } from "../../shared/api/client.ts";

// The account screens' calls (spec section 7); signing in and out is the session's (shared/api/session.ts).
export const authApi = {
  register: (body: v.InferOutput<typeof registerSchema>) => api.post<{ message: string }>("/api/auth/Register", body),
  /** First run: creates the first admin and logs it in (409 once an admin exists, 403 without the setup code). */
  setup: (body: SetupBody) => api.post<{ token: string; user: PublicUser }>("/api/setup", body),
  forgotPassword: (email: string) => api.post<{ message: string; token?: string }>("/api/auth/ForgotPassword", { email }),
  resetPassword: (token: string, newPassword: string) => api.post<{ message: string }>("/api/auth/ResetPassword", { token, newPassword }),
};
