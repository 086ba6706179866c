import { useSignals } from "@preact/signals-react/runtime";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { paths } from "../paths.ts";
import { isAdmin, isAuthenticated, logout } from "../state/session.ts";
import { brandName } from "../state/site.ts";
import { unreadConversations, useUnreadPolling } from "../state/inbox-unread.ts";
import { Logo } from "./Logo.tsx";

// /businesses/add and /businesses/edit are the owner's screens, not the public list: those links match exactly.
const EXACT = new Set<string>([paths.home, paths.businesses]);

function NavLink({ href, children, onClick, label }: { href: string; children: ReactNode; onClick: () => void; label?: string }) {
  const [location] = useLocation();
  const active = EXACT.has(href) ? location === href : location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} className={`nav-link${active ? " active" : ""}`} aria-current={active ? "page" : undefined} aria-label={label} onClick={onClick}>
      {children}
    </Link>
  );
}

export function NavBar() {
  useSignals();
  const [open, setOpen] = useState(false);
  const [, navigate] = useLocation();
  const toggle = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  useUnreadPolling(isAuthenticated.value);
  const unread = unreadConversations.value;

  // Escape closes the open phone menu, as it closes a dialog, and gives focus back to the button that opened it. A layout
  // effect: listening from the moment the menu shows (a passive effect may wait for the next frame on the public pages'
  // runtime, and an Escape pressed at once would be lost).
  useLayoutEffect(() => {
    if (!open) return;
    function onKey(e: KeyboardEvent) {
      if (e.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  async function onLogout() {
    close();
    await logout();
    navigate(paths.login);
  }

  return (
    <header className="navbar">
      <div className="container navbar-inner">
        <Link href={paths.home} className="brand" onClick={close} aria-label={`${brandName.value} home`}>
          <Logo />
        </Link>
        <button
          ref={toggle}
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls="main-nav"
          aria-label={`${open ? "Close menu" : "Open menu"}${unread > 0 ? ` (${unread} unread)` : ""}`}
          onClick={() => setOpen(!open)}
        >
          <span />
          <span />
          <span />
          {unread > 0 && <i className="nav-toggle-dot" aria-hidden="true" />}
        </button>
        <nav id="main-nav" className={`nav${open ? " open" : ""}`} aria-label="Main">
          <NavLink href={paths.home} onClick={close}>Home</NavLink>
          <NavLink href={paths.about} onClick={close}>About</NavLink>
          <NavLink href={paths.faq} onClick={close}>FAQ</NavLink>
          <NavLink href={paths.businesses} onClick={close}>Businesses</NavLink>
          {isAuthenticated.value && <NavLink href={paths.customers} onClick={close}>Customers</NavLink>}
          {isAuthenticated.value && (
            <NavLink href={paths.inbox()} onClick={close} label={unread > 0 ? `Inbox, ${unread} unread` : undefined}>
              Inbox
              {unread > 0 && (
                <span className="nav-badge" data-testid="inbox-badge" aria-hidden="true">
                  {unread > 99 ? "99+" : unread}
                </span>
              )}
            </NavLink>
          )}
          {isAuthenticated.value && <NavLink href={paths.myBusiness} onClick={close}>My Business</NavLink>}
          {isAuthenticated.value && <NavLink href={paths.redeem} onClick={close}>Redeem</NavLink>}
          {isAdmin.value && <NavLink href={paths.businessTypes} onClick={close}>Business Types</NavLink>}
          {isAdmin.value && <NavLink href={paths.users} onClick={close}>Users</NavLink>}
          {isAdmin.value && <NavLink href={paths.settings} onClick={close}>Settings</NavLink>}
          <span className="nav-spacer" />
          {isAuthenticated.value ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onLogout}>
              Logout
            </button>
          ) : (
            <>
              <NavLink href={paths.login} onClick={close}>Login</NavLink>
              <Link href={paths.register} className="btn btn-primary btn-sm" onClick={close}>
                Register
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
