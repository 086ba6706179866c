import { Link } from "wouter";
import { paths } from "../paths.ts";
import { BrandName, ContactEmailLink } from "./Brand.tsx";
import { Logo } from "./Logo.tsx";

const SOCIAL = [
  { name: "Facebook", d: "M14 8h3V4h-3c-2.8 0-4 1.8-4 4.3V10H7v4h3v10h4V14h3l1-4h-4V8.5c0-.3.2-.5.5-.5Z" },
  { name: "Instagram", d: "M8 3h8a5 5 0 0 1 5 5v8a5 5 0 0 1-5 5H8a5 5 0 0 1-5-5V8a5 5 0 0 1 5-5Zm4 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm5-1.5a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z" },
  { name: "X", d: "M4 4h4.5l4 5.6L17.4 4H20l-6.3 7.3L20.5 20H16l-4.4-6-5.3 6H3.7l6.7-7.6Z" },
];

export function Footer() {
  return (
    <footer className="footer">
      <div className="container footer-inner">
        <div className="footer-brand">
          <Logo />
          <p>Promotions from the shops you love, straight to your phone.</p>
        </div>
        <nav className="footer-links" aria-label="Footer">
          <Link href={paths.terms}>Terms of Service</Link>
          <Link href={paths.privacy}>Privacy Policy</Link>
          <Link href={paths.about}>About</Link>
          <ContactEmailLink />
        </nav>
        <div className="footer-social">
          {SOCIAL.map((s) => (
            <a key={s.name} href="#" aria-label={s.name} onClick={(e) => e.preventDefault()}>
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                <path d={s.d} fill="currentColor" />
              </svg>
            </a>
          ))}
        </div>
      </div>
      <div className="container footer-copy">
        © {new Date().getFullYear()} <BrandName />. All rights reserved.
      </div>
    </footer>
  );
}
