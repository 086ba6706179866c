import { useSignals } from "@preact/signals-react/runtime";
import { Link } from "wouter";
import { Icon, type IconName } from "../../shared/components/Icon.tsx";
import { paths } from "../../shared/paths.ts";
import { brandName } from "../../shared/state/site.ts";
import "../../shared/styles/marketing.css";

const STATS = [
  { value: "1000+", label: "Happy customers" },
  { value: "500+", label: "Businesses" },
  { value: "10,000+", label: "Notifications sent" },
];

const FOR_BUSINESSES = [
  "Collect subscribers with a printable QR code poster, no app or website needed",
  "Send a promotion with an optional picture to every subscriber in one go",
  "Reach customers by SMS or WhatsApp, the way each of them prefers",
  "See every message sent to each customer and whether it was delivered",
  "Fill quiet hours with flash sales and bring regulars back more often",
];

const FOR_CUSTOMERS = [
  "Hear about promotions, offers and deals before anyone else",
  "Learn about new products, services and events at the shops you love",
  "Free to subscribe; only your carrier's usual SMS rates may apply",
  "Your phone number is used only for notifications and never shared",
  "Unsubscribe any time by replying STOP or UNSUBSCRIBE",
];

function BenefitList({ id, icon, title, items }: { id: string; icon: IconName; title: string; items: string[] }) {
  return (
    <section className="card mk-audience" aria-labelledby={id}>
      <span className="mk-icon">
        <Icon name={icon} />
      </span>
      <h3 id={id}>{title}</h3>
      <ul className="mk-checklist">
        {items.map((item) => (
          <li key={item}>
            <Icon name="check" size={18} /> {item}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function AboutPage() {
  useSignals();
  const brand = brandName.value;
  return (
    <div className="mk">
      <section className="mk-page-hero" aria-labelledby="about-title">
        <div className="container">
          <p className="mk-eyebrow">About {brand}</p>
          <h1 id="about-title">Keeping local businesses and their customers close</h1>
          <p className="mk-lede">
            {brand} gives every neighborhood shop a simple way to tell its regulars what's new, and gives customers
            a simple way to hear about it.
          </p>
        </div>
      </section>

      <section className="mk-section" aria-labelledby="mission-title">
        <div className="container mk-mission">
          <div>
            <h2 id="mission-title">Our mission</h2>
            <p>
              Big chains have marketing teams and apps. The bakery on the corner has a counter, a great product and
              customers who would love to hear from it. Our mission is to give local businesses the same direct line to
              their customers, without the cost or complexity.
            </p>
            <p>
              A poster with a QR code, a phone number and a message: that's all it takes. Customers choose the shops
              they want to hear from, and they can leave with a single reply.
            </p>
          </div>
          <dl className="mk-stats" aria-label={`${brand} in numbers`}>
            {STATS.map((s) => (
              <div key={s.label} className="mk-stat">
                <dt>{s.label}</dt>
                <dd>{s.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section className="mk-section mk-section-alt" aria-labelledby="benefits-title">
        <div className="container">
          <div className="mk-section-head">
            <h2 id="benefits-title">Built for both sides of the counter</h2>
          </div>
          <div className="mk-audiences">
            <BenefitList id="business-benefits" icon="store" title="For businesses" items={FOR_BUSINESSES} />
            <BenefitList id="customer-benefits" icon="users" title="For customers" items={FOR_CUSTOMERS} />
          </div>
        </div>
      </section>

      <section className="mk-section" aria-labelledby="join-title">
        <div className="container">
          <div className="mk-cta">
            <h2 id="join-title">Ready to get started?</h2>
            <p>Find shops to follow, or put your own business on {brand} in a few minutes.</p>
            <div className="mk-actions mk-actions-center">
              <Link href={paths.businesses} className="btn btn-accent btn-lg">
                Browse Businesses
              </Link>
              <Link href={paths.register} className="btn btn-on-dark btn-lg">
                Add Your Business
              </Link>
            </div>
          </div>
        </div>
      </section>
    </div>
  );
}
