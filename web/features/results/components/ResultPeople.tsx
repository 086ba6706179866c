import { Link } from "wouter";
import type { BroadcastResults, ResultsPerson } from "../../../../src/schemas/broadcast-results.ts";
import { RESULTS_PEOPLE_LIMIT } from "../../../../src/schemas/broadcast-results.ts";
import { formatDateTime } from "../../../shared/format.ts";
import { paths } from "../../../shared/paths.ts";

function PersonRow({ p }: { p: ResultsPerson }) {
  return (
    <tr data-testid={`person-${p.customerId}`}>
      <td data-label="Customer">
        {/* The full number is on the customer's own screen; here only its last 4 digits. */}
        <Link href={paths.customerEdit(p.customerId)} aria-label={`Open customer ${p.phoneMasked}`}>
          {p.phoneMasked}
        </Link>
      </td>
      <td data-label="Clicks">{p.clicks}</td>
      <td data-label="First click">{p.firstClickAt ? <time dateTime={p.firstClickAt}>{formatDateTime(p.firstClickAt)}</time> : "—"}</td>
      <td data-label="Redeemed">{p.redeemedAt ? <time dateTime={p.redeemedAt}>{formatDateTime(p.redeemedAt)}</time> : "—"}</td>
    </tr>
  );
}

/** Who clicked or redeemed, newest activity first; each row opens the customer. */
export function ResultPeople({ r }: { r: Pick<BroadcastResults, "people" | "peopleTruncated" | "trackLinks" | "coupon"> }) {
  const what = [r.trackLinks && "clicked", r.coupon.kind !== null && "redeemed"].filter(Boolean).join(" or ");
  return (
    <section className="card results-people" aria-labelledby="results-people-title">
      <h2 id="results-people-title" className="chart-title">
        Who responded
      </h2>
      {!what ? (
        <p className="muted">Link tracking was off and there was no offer, so nobody's response was recorded.</p>
      ) : r.people.length === 0 ? (
        <p className="muted">Nobody has {what} yet.</p>
      ) : (
        <>
          <p className="muted results-people-hint">Numbers show their last 4 digits; open a customer to see the full number.</p>
          <div className="results-people-table">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">Clicks</th>
                  <th scope="col">First click</th>
                  <th scope="col">Redeemed</th>
                </tr>
              </thead>
              <tbody>
                {r.people.map((p) => (
                  <PersonRow key={p.customerId} p={p} />
                ))}
              </tbody>
            </table>
          </div>
          {r.peopleTruncated && <p className="muted">The newest {RESULTS_PEOPLE_LIMIT} are listed; Download CSV has everyone.</p>}
        </>
      )}
    </section>
  );
}
