import { Link } from "wouter";
import { UNSUBSCRIBE_NOTE } from "../../../src/schemas/poster-text.ts";
import { type LegalSection, LegalDocument } from "./components/LegalDocument.tsx";
import { BrandName, ContactEmailLink } from "../../shared/components/Brand.tsx";
import { paths } from "../../shared/paths.ts";
import "../../shared/styles/legal.css";

const mail = <ContactEmailLink />;

const SECTIONS: LegalSection[] = [
  {
    title: "Acceptance of These Terms",
    body: (
      <p>
        These Terms of Service (“Terms”) govern your use of <BrandName />, including our website, the business
        dashboard, the QR code subscription pages and the SMS and WhatsApp messages sent through them (together, the
        “Service”). By creating an account, subscribing to a business or otherwise using the Service, you agree to these
        Terms. If you do not agree, please do not use the Service.
      </p>
    ),
  },
  {
    title: "What the Service Does",
    body: (
      <p>
        <BrandName /> helps local businesses collect the phone numbers of customers who want to hear from them, through a
        QR code poster or our public business list, and send those customers promotions, offers, deals, flash sales,
        news about new products and services, and events by SMS or WhatsApp. We provide the tools; each business decides
        what it sends and is responsible for its own messages and offers.
      </p>
    ),
  },
  {
    title: "Eligibility",
    body: (
      <p>
        You must be at least 13 years old to subscribe to notifications, and at least 18 years old (or the age of
        majority where you live) to register a business account. If you register on behalf of a business, you confirm
        that you are authorized to accept these Terms for that business.
      </p>
    ),
  },
  {
    title: "Your Account",
    body: (
      <p>
        Business owners need an account; subscribers do not. Give us accurate information, keep your password
        confidential, and tell us promptly at {mail} if you suspect that someone else has used your account. You are
        responsible for the activity that happens under your account.
      </p>
    ),
  },
  {
    title: "Business Owner Responsibilities",
    body: (
      <>
        <p>If you use <BrandName /> to message customers, you agree to:</p>
        <ul>
          <li>describe your business accurately, including its name, type, address and phone number;</li>
          <li>send only messages about your business that your subscribers asked to receive;</li>
          <li>honor every opt-out request, including requests made in person or by other means;</li>
          <li>
            follow the laws that apply to your messages, such as consumer protection, advertising and telemarketing laws
            (including the Telephone Consumer Protection Act in the United States), and the rules of mobile carriers and
            WhatsApp.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: "Subscriber Consent",
    body: (
      <p>
        Customers normally join a business's list by scanning its QR code or choosing it in the business list and
        entering their own phone number, and we keep a record of when and how each subscription was made. If you add a
        customer yourself, you must have that person's express permission to send them marketing messages and be able to
        show it if asked. You may not buy, rent or import contact lists, or use subscriber numbers outside the Service.
      </p>
    ),
  },
  {
    title: "Unsubscribing",
    body: (
      <p>
        Subscribers can stop messages at any time by replying UNSUBSCRIBE or STOP from the phone number they enrolled.
        Every printed poster carries the note “{UNSUBSCRIBE_NOTE}”. Once someone opts out,
        the Service stops sending them messages from that sender. They can join again by replying START or by
        subscribing again.
      </p>
    ),
  },
  {
    title: "Acceptable Use",
    body: (
      <>
        <p>You may not use the Service to send, or to help send:</p>
        <ul>
          <li>content that is unlawful, deceptive, defamatory, hateful, harassing or sexually explicit;</li>
          <li>offers of illegal goods or services, or of products that carriers restrict where those rules apply;</li>
          <li>phishing links, malware, or messages that impersonate another person or business;</li>
          <li>messages to people who have not subscribed or who have opted out.</li>
        </ul>
        <p>
          You also may not probe, disrupt or overload the Service, get around its limits, or access it by automated means
          other than the features we provide.
        </p>
      </>
    ),
  },
  {
    title: "Costs and Message Delivery",
    body: (
      <p>
        Subscribing to a business is free. Your mobile carrier's standard SMS, MMS or data rates may apply to messages
        you receive or send, including opt-out replies. Each business decides how often it sends messages. Messages
        travel through third-party carriers and messaging platforms, so we cannot guarantee that every message arrives,
        or arrives at a particular time.
      </p>
    ),
  },
  {
    title: "Content You Provide",
    body: (
      <p>
        Business owners keep ownership of the logos, images, descriptions and message text they upload (“Your Content”).
        You grant <BrandName /> a worldwide, non-exclusive, royalty-free license to host, store, copy and display Your
        Content only as needed to run the Service, for example to show your business in the public list, print your QR
        code poster and deliver your broadcasts. You confirm that you have the rights to everything you upload.
      </p>
    ),
  },
  {
    title: "Our Intellectual Property",
    body: (
      <p>
        The Service, including its software, design and the <BrandName /> name and logo, belongs to us and our licensors
        and is protected by intellectual property laws. These Terms give you a limited, revocable, non-transferable right
        to use the Service for its intended purpose; they do not transfer any ownership to you.
      </p>
    ),
  },
  {
    title: "Privacy",
    body: (
      <p>
        Our <Link href={paths.privacy}>Privacy Policy</Link> explains what information we collect and how we use it, and
        it forms part of these Terms. In short: subscribers' phone numbers are used only to send notifications, are never
        sold or shared, and are deleted on request.
      </p>
    ),
  },
  {
    title: "Third-Party Services",
    body: (
      <p>
        The Service relies on third parties, including mobile carriers, messaging providers and WhatsApp. Their services
        are governed by their own terms and policies, and we are not responsible for their availability or their acts.
        Links to other websites are provided for convenience only.
      </p>
    ),
  },
  {
    title: "Suspension and Termination",
    body: (
      <p>
        You may stop using the Service at any time, and you can ask us to close your account by writing to {mail}. We may
        suspend or end your access, or remove content, if you breach these Terms, if your messages draw an unusual number
        of complaints or opt-outs, or if the law or a carrier requires it. Where it is reasonable, we will tell you first
        and give you a chance to fix the problem. Sections that by their nature should survive termination, such as those
        on content, liability and disputes, will survive.
      </p>
    ),
  },
  {
    title: "Disclaimers",
    body: (
      <p>
        The Service is provided “as is” and “as available”. To the fullest extent permitted by law, we disclaim all
        warranties, express or implied, including warranties of merchantability, fitness for a particular purpose and
        non-infringement. We do not promise that the Service will be uninterrupted or error-free. We are not responsible
        for the offers, products or services that businesses promote: any deal is between you and the business.
      </p>
    ),
  },
  {
    title: "Limitation of Liability",
    body: (
      <p>
        To the fullest extent permitted by law, <BrandName /> will not be liable for any indirect, incidental, special,
        consequential or punitive damages, or for lost profits, revenue, data or goodwill. Our total liability for all
        claims relating to the Service is limited to one hundred US dollars (US$100). Some places do not allow certain
        limitations, so some of them may not apply to you.
      </p>
    ),
  },
  {
    title: "Indemnification",
    body: (
      <p>
        If you use the Service as a business, you agree to defend and indemnify <BrandName /> against claims, fines and
        costs (including reasonable legal fees) arising from your messages, Your Content, the way you obtained your
        subscribers' consent, or your breach of these Terms or the law.
      </p>
    ),
  },
  {
    title: "Changes to These Terms",
    body: (
      <p>
        We may update these Terms from time to time. We will give at least 30 days' notice before a material change takes
        effect, by email to account holders and by a notice on this page, and we will update the “Last updated” date
        above. If you keep using the Service after a change takes effect, you accept the updated Terms; if you do not
        agree, please stop using the Service before then.
      </p>
    ),
  },
  {
    title: "Governing Law and General Terms",
    body: (
      <p>
        These Terms are governed by the laws of the United States and of the state in which <BrandName />'s operator has
        its principal place of business, without regard to conflict-of-law rules. Before starting a formal claim, please
        contact us so we can try to resolve the issue informally. Nothing in this section limits rights you have under
        the consumer protection laws of the place you live. If any part of these Terms is found unenforceable, the rest
        remains in effect, and these Terms are the entire agreement between you and us about the Service.
      </p>
    ),
  },
  {
    title: "Contact Us",
    body: <p>Questions about these Terms? Email us at {mail}. We read every message.</p>,
  },
];

export function TermsPage() {
  return (
    <LegalDocument
      slug="terms"
      title="Terms of Service"
      sections={SECTIONS}
      intro={
        <p>
          Please read these Terms carefully. They explain what you can expect from <BrandName />, and what we expect from
          the businesses and customers who use it.
        </p>
      }
    />
  );
}
