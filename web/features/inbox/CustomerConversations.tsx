import { useState } from "react";
import "../../shared/styles/inbox.css";
import { ConversationThread } from "./components/ConversationThread.tsx";

/** One business's conversation, read (and so marked read) only once opened. */
function BusinessConversation({ customerId, business, first }: { customerId: number; business: { id: number; name: string }; first: boolean }) {
  const [open, setOpen] = useState(first);
  return (
    <details className="inbox-customer-business" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{business.name}</summary>
      {open && <ConversationThread which={{ customerId, businessId: business.id }} title="none" />}
    </details>
  );
}

/** On the customer's page: one conversation per business they follow (or followed), each with its reply box. */
export function CustomerConversations({ customerId, businesses }: { customerId: number; businesses: { id: number; name: string }[] }) {
  if (businesses.length === 0) return null;
  return (
    <section className="inbox-customer" aria-label="Conversations">
      <h3>Conversations</h3>
      {businesses.map((b, i) => (
        <BusinessConversation key={b.id} customerId={customerId} business={b} first={i === 0} />
      ))}
    </section>
  );
}
