/** +14155550123 -> "•••• 0123": enough to recognise a number on a shared screen, never the whole of it. */
export const lastDigits = (phone: string) => `•••• ${phone.slice(-4)}`;
