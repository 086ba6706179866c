import type { ChecklistItem } from "../../../src/schemas/checklist.ts";
import type { SettingsUpdate, SettingsView } from "../../../src/schemas/settings.ts";
import { api } from "../../shared/api/client.ts";

// The admin's settings (Nearcast's own API, admin only).
export const settingsApi = {
  get: () => api.get<SettingsView>("/api/settings"),
  update: (changes: SettingsUpdate) => api.put<SettingsView>("/api/settings", changes),
  /** Sends a test email to `to` (default: the admin's own address). */
  testEmail: (to?: string) => api.post<{ message: string }>("/api/settings/TestEmail", to ? { to } : {}),
  checklist: () => api.get<{ items: ChecklistItem[] }>("/api/settings/Checklist"),
};
