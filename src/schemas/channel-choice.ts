import type { ContactPreference } from "./customers.ts";

// What each channel card says and draws, where a person picks SMS or WhatsApp: the customer form (React) and the
// server-rendered subscribe page. One list, so the two screens offer the same choice in the same words.

export const CHANNEL_CHOICES: Record<ContactPreference, { title: string; hint: string; iconPaths: string[] }> = {
  SMS: {
    title: "SMS",
    hint: "Text message",
    iconPaths: ["M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z", "M8 9h8M8 13h5"],
  },
  WhatsApp: {
    title: "WhatsApp",
    hint: "WhatsApp message",
    iconPaths: ["M3 21l1.65-4.95A8.5 8.5 0 1 1 8 19.4z", "M9 10c0 2.5 2.5 5 5 5l1.2-1.2-1.8-1-1 .6c-.8-.4-1.4-1-1.8-1.8l.6-1-1-1.8z"],
  },
};
