import type { PublicUser } from "../../../../src/schemas/auth.ts";
import type { BroadcastEstimate } from "../../../../src/schemas/broadcast-estimate.ts";
import type { TestStatus } from "../../../../src/schemas/test-send.ts";
import { api, idParam } from "../../../shared/api/client.ts";

// Before a broadcast goes out: the confirm step's estimate, a test to the owner's own phone, and that phone (set and
// verified with a texted code).

export type TestChannel = "SMS" | "WhatsApp";

/** SendTest's answer: the provider took it, or why not. */
export interface TestSendResponse {
  result: "sent" | "failed";
  message: string;
  to: string;
  channel: TestChannel;
  reason?: string;
  /** Its outcome: GET TestStatus?id= (the status callbacks move it on). */
  testId?: number;
}

/** The WhatsApp template chosen for the broadcast: a WhatsApp test sends it too. */
export interface TestTemplate {
  contentSid: string;
  contentVariables: string;
}

export const beforeSendApi = {
  estimate: (businessId: number | string, messageText: string, hasImage: boolean, withTemplate = false, trackLinks = true, uniqueCoupons = false) =>
    api.post<BroadcastEstimate>("/api/broadcast/Estimate", { businessId: String(businessId), messageText, hasImage, withTemplate, trackLinks, uniqueCoupons }),
  /** Multipart, like a publish: the image (when chosen) goes with it. */
  sendTest: (businessId: number | string, messageText: string, channel: TestChannel, image: File | null, template: TestTemplate | null = null) => {
    const form = new FormData();
    form.append("BusinessId", String(businessId));
    form.append("MessageText", messageText);
    form.append("Channel", channel);
    if (image) form.append("Image", image, image.name);
    if (template && channel === "WhatsApp") {
      form.append("ContentSid", template.contentSid);
      form.append("ContentVariables", template.contentVariables);
    }
    return api.post<TestSendResponse>("/api/broadcast/SendTest", form);
  },
  testStatus: (id: number) => api.get<TestStatus>(`/api/broadcast/TestStatus?id=${idParam(id)}`),
  /** "" clears it. */
  updateMyPhone: (phone: string) => api.put<PublicUser>("/api/auth/UpdateMyPhone", { phone }),
};

export const phoneApi = {
  sendCode: () => api.post<{ message: string; to: string; expiresInMinutes: number; resendAfterSeconds: number }>("/api/auth/SendPhoneCode"),
  verify: (code: string) => api.post<PublicUser>("/api/auth/VerifyMyPhone", { code }),
};
