import { useState } from "react";
import type { PublicBusiness } from "../../../src/schemas/businesses.ts";
import { UNKNOWN_TYPE } from "../../../src/schemas/texts.ts";
import { businessApi } from "./api.ts";
import { BusinessAvatar } from "./components/BusinessAvatar.tsx";
import { QrModal } from "./components/QrModal.tsx";
import { ListLoadFailed } from "../../shared/components/ListPage.tsx";
import { LoadMore } from "../../shared/components/LoadMore.tsx";
import { SearchBox } from "../../shared/components/SearchBox.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { usePagedList } from "../../shared/components/usePagedList.ts";
import { BrandName } from "../../shared/components/Brand.tsx";
import "../../shared/styles/businesses.css";

export const MORE_BUSINESSES_FAILED = "Could not load more businesses.";
export const noMatchText = (q: string) => `No businesses match "${q}".`;
const BUSINESS_NOUNS = ["business", "businesses"] as const;

/** /businesses: the active businesses by name, a page at a time, each with a SUBSCRIBE button that opens its QR code. */
export function BusinessListPage() {
  const [filters, setFilters] = useState({ q: "" });
  const paged = usePagedList(businessApi.pagePublic, filters, "businesses");
  const { items: list, loading, failure } = paged;
  const [qrFor, setQrFor] = useState<PublicBusiness | null>(null);

  return (
    <section className="biz-public">
      <header className="biz-hero">
        <div className="container">
          <h1>
            <BrandName /> Businesses
          </h1>
          <p>Subscribe to get notifications from your favorite businesses</p>
        </div>
      </header>
      <div className="container page biz-public-body">
        {(loading || filters.q || paged.total > 0) && <SearchBox label="Search by name" onSearch={(q) => setFilters({ q: q.trim() })} />}
        {loading ? (
          <Spinner label="Loading businesses..." />
        ) : failure ? (
          <ListLoadFailed failure={failure} />
        ) : list.length === 0 && filters.q ? (
          <div className="card empty-state biz-empty">
            <p>{noMatchText(filters.q)}</p>
          </div>
        ) : list.length === 0 ? (
          <div className="card empty-state biz-empty">
            <p className="biz-empty-title">No businesses yet.</p>
            <p>Check back soon: local shops are joining.</p>
          </div>
        ) : (
          <ul className="biz-grid" aria-label="Businesses">
            {list.map((b) => (
              <li key={b.id} className="card biz-card biz-card-public">
                <BusinessAvatar name={b.name} logo={b.logoImagePath} max={3} className="biz-avatar-lg" />
                <h2 className="biz-name">{b.name}</h2>
                <p className="biz-type-pill">{b.businessType?.name ?? UNKNOWN_TYPE}</p>
                <p className="biz-address">
                  <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                    <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" />
                    <circle cx="12" cy="9.5" r="2.5" />
                  </svg>
                  <span>{b.address}</span>
                </p>
                <button type="button" className="btn btn-primary btn-block biz-subscribe" aria-label={`Subscribe to ${b.name}`} onClick={() => setQrFor(b)}>
                  SUBSCRIBE
                </button>
              </li>
            ))}
          </ul>
        )}
        {!loading && !failure && list.length > 0 && <LoadMore list={paged} noun={BUSINESS_NOUNS} failedText={MORE_BUSINESSES_FAILED} />}
      </div>
      {qrFor && <QrModal business={qrFor} onClose={() => setQrFor(null)} />}
    </section>
  );
}
