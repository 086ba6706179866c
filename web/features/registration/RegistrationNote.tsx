import { useEffect, useState } from "react";
import { Link } from "wouter";
import { REGISTER_BEFORE_SENDING } from "../../../src/schemas/registration.ts";
import { paths } from "../../shared/paths.ts";
import { registrationApi } from "./api.ts";

/**
 * The broadcast screen's amber note while the US sender is not approved by the carriers (they block its texts), with
 * the way to the kit. Nothing while it loads, when it cannot be read, or when no registration is needed.
 */
export function RegistrationNote({ businessId }: { businessId: number | string }) {
  const [needed, setNeeded] = useState<{ number: string | null; pending: boolean } | null>(null);
  useEffect(() => {
    let live = true;
    registrationApi
      .kit(businessId)
      .then((kit) => live && setNeeded(kit.sender.needsRegistration ? { number: kit.sender.number, pending: kit.sender.registration === "pending" } : null))
      .catch(() => live && setNeeded(null));
    return () => {
      live = false;
    };
  }, [businessId]);
  if (!needed) return null;
  return (
    <div className="alert alert-warning registration-note" role="status">
      <strong>{REGISTER_BEFORE_SENDING}.</strong> US carriers block texts from {needed.number ?? "this number"} until they approve it
      {needed.pending ? " (the registration is pending)" : ""}. <Link href={paths.registration(businessId)}>Open the registration kit</Link>
    </div>
  );
}
