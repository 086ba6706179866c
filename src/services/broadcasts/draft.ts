// A publish that passed its checks, and the broadcasts row it becomes (now or scheduled).
import type { NewBroadcast } from "../../repos/broadcasts.ts";
import type { PublishInput } from "../../schemas/broadcast-input.ts";
import type { GivenFields } from "../../schemas/broadcasts.ts";
import { givenFields } from "./summary.ts";
import { type TemplateChoice, templateColumns } from "./template-choice.ts";

export interface Draft {
  business: { id: number; ownerId: number };
  createdBy: number | null;
  input: PublishInput;
  choice: TemplateChoice | null;
  /** The offer's end (ms), from CouponExpires in the business's time zone (coupons/offer.ts). */
  couponExpiresAt?: number | null;
}

/** The row to insert. A field of the publish schema that NewBroadcast does not list is a compile error here. */
export function newBroadcast(draft: Draft, imagePath: string | null, createdAt: number): NewBroadcast {
  const given: Pick<NewBroadcast, keyof GivenFields> = givenFields(draft.input);
  const couponExpiresAt = draft.couponExpiresAt == null ? null : new Date(draft.couponExpiresAt);
  return { ...given, createdBy: draft.createdBy, imagePath, createdAt, couponExpiresAt, ...templateColumns(draft.choice, imagePath) };
}
