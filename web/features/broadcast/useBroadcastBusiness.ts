import { useEffect, useState } from "react";
import { BUSINESS_LOAD_FAILED, businessReadApi } from "../../shared/api/businesses.ts";
import { notify } from "../../shared/state/toasts.ts";
import { broadcastApi, type SubscriberCount } from "./api/broadcasts.ts";

/**
 * The business the screen broadcasts for: its name, and its subscribers by channel. A business that does not exist,
 * or is not the user's (the server then gives only the public view, without ownerId), stops the screen: the spec's
 * load error, said in a toast and on the page (`loadFailed`), and nothing can be sent. Without the count the
 * recipients line is left out.
 */
export function useBroadcastBusiness(businessId: string) {
  const [businessName, setBusinessName] = useState<string | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [counts, setCounts] = useState<SubscriberCount | null>(null);

  useEffect(() => {
    let cancelled = false;
    const failed = () => {
      notify.error("Error", BUSINESS_LOAD_FAILED);
      setLoadFailed(true);
    };
    businessReadApi.get(businessId).then(
      (b) => {
        if (cancelled) return;
        if (b && typeof b.name === "string" && "ownerId" in b && typeof b.ownerId === "number") setBusinessName(b.name);
        else failed();
      },
      (err) => {
        if (cancelled) return;
        console.error("Error loading business:", err);
        failed();
      },
    );
    broadcastApi.subscriberCount(businessId).then(
      (c) => {
        if (!cancelled && c && typeof c.total === "number") setCounts(c);
      },
      (err) => {
        if (!cancelled) console.error("Error loading subscriber count:", err);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [businessId]);

  return { businessName, loadFailed, counts };
}
