import { Link } from "wouter";
import type { DashboardBroadcast } from "../../../../src/schemas/business-dashboard.ts";
import { formatDateTime } from "../../../shared/format.ts";
import { paths } from "../../../shared/paths.ts";
import { money } from "../../results/index.ts";

const NUMBERS = [
  ["Recipients", "recipients"],
  ["Delivered", "delivered"],
  ["Clicks", "clicks"],
  ["Redemptions", "redemptions"],
] as const;

/** A number with a bar as long as its share of the column's largest, so the broadcasts compare at a glance. */
function Bar({ n, max }: { n: number; max: number }) {
  return (
    <span className="dash-bar-cell">
      <span className="dash-bar" aria-hidden="true">
        <span style={{ width: `${max > 0 ? (n / max) * 100 : 0}%` }} />
      </span>
      <span className="dash-bar-num">{n.toLocaleString("en-US")}</span>
    </span>
  );
}

/** The last broadcasts side by side, newest first; each opens its results page. */
export function LastBroadcasts({ list, businessId }: { list: DashboardBroadcast[]; businessId: number }) {
  const max = Object.fromEntries(NUMBERS.map(([, key]) => [key, Math.max(0, ...list.map((b) => b[key]))])) as Record<(typeof NUMBERS)[number][1], number>;
  return (
    <section className="card dash-broadcasts" aria-labelledby="dash-broadcasts-title">
      <h2 id="dash-broadcasts-title" className="chart-title">
        Last broadcasts
      </h2>
      {list.length === 0 ? (
        <p className="muted">
          No broadcasts yet. <Link href={paths.broadcast(businessId)}>Send the first one</Link>: its results show here.
        </p>
      ) : (
        <div className="dash-broadcasts-table">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Broadcast</th>
                {NUMBERS.map(([label]) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {list.map((b) => (
                <tr key={b.broadcastId} data-testid={`dash-broadcast-${b.broadcastId}`}>
                  <td data-label="Broadcast" className="dash-broadcast-name">
                    <Link href={paths.broadcastResults(b.broadcastId)} aria-label={`Results of the broadcast of ${formatDateTime(b.startedAt ?? b.createdAt)}`}>
                      {formatDateTime(b.startedAt ?? b.createdAt)}
                    </Link>
                    <span className="dash-broadcast-text">{b.messageText}</span>
                  </td>
                  {NUMBERS.map(([label, key]) => (
                    <td key={key} data-label={label}>
                      <Bar n={b[key]} max={max[key]} />
                    </td>
                  ))}
                  <td data-label="Cost">{b.cost === null ? "No cost" : money(b.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
