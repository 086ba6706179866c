import type { BusinessDashboard } from "../../../../src/schemas/business-dashboard.ts";
import { money, ResultCards } from "../../results/index.ts";

/** Messages sent, their segments and cost since the first of this month. */
export function ThisMonth({ m }: { m: BusinessDashboard["thisMonth"] }) {
  const billed = m.cost !== null;
  return (
    <section aria-labelledby="dash-month-title" className="dash-month">
      <h2 id="dash-month-title" className="chart-title">
        This month
      </h2>
      <ResultCards
        prefix="month"
        cards={[
          { key: "messages", label: "Messages sent", value: m.messagesSent.toLocaleString("en-US") },
          { key: "segments", label: "SMS segments", value: m.segments.toLocaleString("en-US") },
          billed
            ? { key: "cost", label: "Cost", value: money(m.cost ?? 0), note: "Estimated from your prices; your Twilio bill may differ" }
            : { key: "cost", label: "Cost", value: "No cost", note: "Sandbox: nothing was billed", wordy: true },
        ]}
      />
    </section>
  );
}
