// X-Twilio-Signature, with twilio's own code. Only its webhooks module is loaded (it needs only node:crypto, node:url
// and node:querystring), never the package's entry point, which would load its whole REST client and axios.
import { getExpectedTwilioSignature, validateRequest } from "twilio/lib/webhooks/webhooks";
import { publicLink } from "./messenger.ts";

/** Form fields as parsed from the webhook body; repeated keys as arrays. */
export type WebhookParams = Record<string, string | string[]>;

/** The URL Twilio signed: NEARCAST_PUBLIC_URL + path + query, exactly as the request arrived. */
export function webhookUrl(publicUrl: string, pathWithQuery: string): string {
  return publicLink(publicUrl, pathWithQuery);
}

/** True when `signatureHeader` is Twilio's signature of this request; false for a missing or wrong one. */
export function verifyTwilioSignature(
  authToken: string,
  publicUrl: string,
  pathWithQuery: string,
  params: WebhookParams,
  signatureHeader: string | null | undefined,
): boolean {
  if (!authToken || !signatureHeader) return false;
  try {
    return validateRequest(authToken, signatureHeader, webhookUrl(publicUrl, pathWithQuery), params);
  } catch {
    return false; // a URL twilio cannot parse is not a valid request
  }
}

/** The signature Twilio would send (for tests and for the fake Twilio). */
export function twilioSignature(authToken: string, publicUrl: string, pathWithQuery: string, params: WebhookParams): string {
  return getExpectedTwilioSignature(authToken, webhookUrl(publicUrl, pathWithQuery), params);
}
