import { signal } from "@preact/signals-react";

export type ToastType = "success" | "error" | "warning" | "info";

export interface Toast {
  id: number;
  type: ToastType;
  title: string;
  message: string;
  duration: number;
}

// Spec section 9.
export const TOAST_DURATIONS: Record<ToastType, number> = { success: 4000, error: 6000, warning: 5000, info: 4000 };

export const toasts = signal<Toast[]>([]);
let nextId = 1;

/** Where the toasts on screen wait while the browser loads the next page from the server (app.tsx's FullPageLoad). */
const CARRIED = "nearcast.toasts";

export function carryToasts(): void {
  try {
    if (toasts.value.length) sessionStorage.setItem(CARRIED, JSON.stringify(toasts.value));
  } catch {
    // storage blocked: the toast is lost, the page is not
  }
}

/** The toasts the page before this one carried over; shown again for their whole time. */
export function showCarriedToasts(): void {
  let carried: Toast[] = [];
  try {
    carried = JSON.parse(sessionStorage.getItem(CARRIED) ?? "[]");
    sessionStorage.removeItem(CARRIED);
  } catch {
    return;
  }
  for (const t of carried) showToast(t.type, t.title, t.message, t.duration);
}

export function removeToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

export function showToast(type: ToastType, title: string, message: string, duration = TOAST_DURATIONS[type]): number {
  const id = nextId++;
  toasts.value = [...toasts.value, { id, type, title, message, duration }];
  setTimeout(() => removeToast(id), duration);
  return id;
}

export const notify = {
  success: (title: string, message: string) => showToast("success", title, message),
  error: (title: string, message: string) => showToast("error", title, message),
  warning: (title: string, message: string) => showToast("warning", title, message),
  info: (title: string, message: string) => showToast("info", title, message),
};
