import { Link } from "wouter";
import { UNSUBSCRIBE_NOTE } from "../../../src/schemas/poster-text.ts";
import { Accordion, type AccordionItem } from "./components/Accordion.tsx";
import { BrandName, ContactEmailLink } from "../../shared/components/Brand.tsx";
import { paths } from "../../shared/paths.ts";
import "../../shared/styles/marketing.css";


const NOTIFICATION_TYPES = [
  "Promotions",
  "Offers",
  "Deals",
  "Flash sales",
  "New products and services",
  "Events",
];

const FAQ_ITEMS: AccordionItem[] = [
  {
    id: "unsubscribe",
    title: "How do I unsubscribe?",
    content: (
      <>
        <p>
          Reply <strong>UNSUBSCRIBE</strong> or <strong>STOP</strong> to any message you received, sending it from the
          phone number you enrolled. We record your request and stop sending you notifications from that sender.
        </p>
        <p>
          The poster at the shop says the same: <q>{UNSUBSCRIBE_NOTE}</q>. Changed your mind? Just subscribe
          again.
        </p>
      </>
    ),
  },
  {
    id: "subscribe",
    title: "How do I subscribe to a business?",
    content: (
      <>
        <p>
          Scan the QR code on the business's poster with your phone's camera, or find the business in our{" "}
          <Link href={paths.businesses}>businesses list</Link> and tap <strong>SUBSCRIBE</strong>. Then enter your phone
          number and choose SMS or WhatsApp. That's it: no app and no account needed.
        </p>
      </>
    ),
  },
  {
    id: "types",
    title: "What kind of notifications will I receive?",
    content: (
      <>
        <p>Each business you subscribe to can send you:</p>
        <ul className="mk-tags">
          {NOTIFICATION_TYPES.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
        <p>You only hear from the businesses you chose, and every message tells you how to stop.</p>
      </>
    ),
  },
  {
    id: "cost",
    title: "Does it cost anything?",
    content: (
      <p>
        No. Subscribing is free, though carrier SMS rates may apply depending on your mobile plan. <BrandName /> never
        charges subscribers.
      </p>
    ),
  },
  {
    id: "phone",
    title: "How is my phone number used?",
    content: (
      <>
        <p>
          Your phone number is used only to send you notifications from the businesses you subscribed to. It is never
          shared with or sold to anyone else.
        </p>
        <p>
          Want it gone? Your number is deleted on request: email <ContactEmailLink />{" "}
          with the number to remove. Read more in our <Link href={paths.privacy}>Privacy Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: "owners",
    title: "I own a business. How do I get started?",
    content: (
      <p>
        <Link href={paths.register}>Create a free account</Link>, add your business, and print your QR code poster for
        the counter. Your customers subscribe by scanning it, and you can send them a promotion whenever you like.
      </p>
    ),
  },
];

export function FaqPage() {
  return (
    <div className="mk">
      <section className="container page narrow mk-faq" aria-labelledby="faq-title">
        <header className="mk-faq-header">
          <p className="mk-eyebrow">Help center</p>
          <h1 id="faq-title">Frequently Asked Questions</h1>
          <p className="page-subtitle">Everything you need to know about getting deals from local businesses.</p>
        </header>
        <Accordion items={FAQ_ITEMS} headingLevel={2} />
        <aside className="card mk-faq-cta" aria-labelledby="faq-cta-title">
          <div>
            <h2 id="faq-cta-title">Ready to subscribe?</h2>
            <p>Find the shops near you and never miss their next deal.</p>
          </div>
          <Link href={paths.businesses} className="btn btn-primary">
            Browse Businesses
          </Link>
        </aside>
        <p className="mk-faq-contact muted">
          Still have a question? Email us at <ContactEmailLink />.
        </p>
      </section>
    </div>
  );
}
