import type { CouponExpiredAnswer, CouponRedeemed, CouponUsedAnswer } from "../../../src/schemas/coupons.ts";
import { api, ApiError } from "../../shared/api/client.ts";

// The Redeem screen's one call, POST /api/coupon/Redeem, and what its answer comes to on the screen.

/** A redemption's outcome as the screen shows it; a refusal of the input itself (400, a phone that is no
 * subscriber's) stays an ApiError for the form's fields. */
export type RedeemResult =
  | { kind: "valid"; redeemed: CouponRedeemed }
  | { kind: "used"; redeemedAt: string }
  | { kind: "expired"; expiredAt: string }
  | { kind: "unknown" }
  | { kind: "wait" };

export const couponsApi = {
  async redeem(code: string, phone: string): Promise<RedeemResult> {
    try {
      const redeemed = await api.post<CouponRedeemed>("/api/coupon/Redeem", phone.trim() ? { code, phone } : { code });
      return { kind: "valid", redeemed };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.status === 409) return { kind: "used", redeemedAt: (err.body as CouponUsedAnswer).redeemedAt };
      if (err.status === 410) return { kind: "expired", expiredAt: (err.body as CouponExpiredAnswer).expiredAt };
      if (err.status === 429) return { kind: "wait" };
      // A 404 naming the phone is about the phone, not the code.
      if (err.status === 404 && !err.fields.phone) return { kind: "unknown" };
      throw err;
    }
  },
};
