// A day as the legal pages show it ("March 5, 2031", US English) and its ISO form, for the page and for the server
// that writes today's into it. Without Intl on purpose: a page's first Intl call loads its locale data, 75 ms of a
// phone's main thread (4x throttle) on /terms and /privacy, inside the task that hydrates them (bench/README).
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const pad = (n: number) => String(n).padStart(2, "0");

/** "March 5, 2031", in the local time zone. */
export const longDate = (day: Date): string => `${MONTHS[day.getMonth()]} ${day.getDate()}, ${day.getFullYear()}`;

/** "2031-03-05", in the local time zone (a <time> element's dateTime). */
export const isoDay = (day: Date): string => `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
