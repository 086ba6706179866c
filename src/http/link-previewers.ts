// Who fetches a short link without being a person (issue 25): messaging apps fetch a link to draw its preview card
// the moment a text arrives (WhatsApp, iMessage, Telegram...), search engines and carriers' and mail filters' scanners
// check it. Counting those would report a click for every delivery. They still get the redirect (a preview must
// work), only the click is not counted. Carrier scanners that pose as a browser cannot be told apart by name: the
// HEAD rule and the one-click-a-day rule catch most of them.

/** Names in the User-Agent of preview fetchers and crawlers (case-insensitive). */
const PREVIEWERS = [
  "facebookexternalhit", // Facebook, Messenger, Instagram; also in iMessage's preview agent ("... facebookexternalhit/1.1 Facebot Twitterbot/1.0")
  "facebot",
  "whatsapp",
  "twitterbot",
  "slackbot",
  "slack-imgproxy",
  "telegrambot",
  "discordbot",
  "linkedinbot",
  "skypeuripreview",
  "applebot",
  "googlebot",
  "google-pagerenderer",
  "bingbot",
  "pinterest",
  "redditbot",
  "embedly",
  "iframely",
  "viber",
  "snapchat",
  "mastodon",
  // Scripts, not people clicking in a phone: a person's browser never says these.
  "curl/",
  "wget/",
  "python-requests",
  "go-http-client",
];
const PREVIEWER = new RegExp(PREVIEWERS.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|") + String.raw`|\bbot\b|crawler|spider|preview`, "i");

/** True when `userAgent` is a link preview, crawler or scanner; a missing one too (every person's browser sends one). */
export function isLinkPreviewer(userAgent: string | undefined): boolean {
  return !userAgent || PREVIEWER.test(userAgent);
}
