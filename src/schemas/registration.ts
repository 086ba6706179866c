// The carrier registration kit (issue 23, item 1): the fields Twilio's toll-free verification and A2P 10DLC campaign
// forms ask for, filled in from what Nearcast already holds. The API, the CLI's --json and the screen share this shape.
import * as v from "valibot";

/** Where the admin says the US sender stands with the carriers (the senderRegistration setting). */
export const SENDER_REGISTRATION_STATES = ["unregistered", "pending", "approved"] as const;
export type SenderRegistration = (typeof SENDER_REGISTRATION_STATES)[number];

/** The amber line of the checklist and the broadcast screen while a US sender is not approved. */
export const REGISTER_BEFORE_SENDING = "Register your number before sending";

/** Twilio's toll-free MessageVolume choices (monthly), smallest first. */
export const MONTHLY_VOLUME_TIERS = [10, 100, 1_000, 10_000, 100_000, 250_000, 500_000, 750_000, 1_000_000, 5_000_000, 10_000_000] as const;

const keywordReply = v.object({ keyword: v.string(), reply: v.string() });

export const registrationKitSchema = v.object({
  businessId: v.number(),
  businessName: v.string(),
  useCase: v.string(),
  description: v.string(),
  optInType: v.string(),
  optInDescription: v.string(),
  /** null while no public URL is saved (then `problems` says so). */
  optInImageUrl: v.nullable(v.string()),
  programUrl: v.nullable(v.string()),
  privacyUrl: v.nullable(v.string()),
  termsUrl: v.nullable(v.string()),
  sampleMessages: v.array(v.string()),
  monthlyVolume: v.number(),
  /** The smallest of MONTHLY_VOLUME_TIERS that holds `monthlyVolume`, as the toll-free form writes it ("1,000"). */
  monthlyVolumeTier: v.string(),
  /** One sentence: how `monthlyVolume` was made. */
  monthlyVolumeBasis: v.string(),
  keywords: v.array(keywordReply),
  sender: v.object({
    /** The SMS sender number, when one is set. */
    number: v.nullable(v.string()),
    /** A US number (+1, region US): it sends nothing until the carriers approve it. */
    us: v.boolean(),
    registration: v.picklist(SENDER_REGISTRATION_STATES),
    /** US and not approved: the amber "Register your number before sending". */
    needsRegistration: v.boolean(),
  }),
  /** What a reviewer would reject or cannot see yet, each with its fix; empty when the kit is ready. */
  problems: v.array(v.string()),
});

export type RegistrationKit = v.InferOutput<typeof registrationKitSchema>;
export type KeywordReply = RegistrationKit["keywords"][number];

/** How every sample message the kit writes ends: carriers look for the opt-out in each sample. */
export const SAMPLE_STOP = "Reply STOP to opt out.";
