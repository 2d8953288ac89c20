import { Alert, Anchor, Button, Group, Text } from "@mantine/core";
import { useCan } from "@refinedev/core";
import { brand } from "@shop/brand";
import type { Preparation, PreparationOrder } from "@shop/orders";
import { Link, useSearchParams } from "react-router";
import { Loading, QueryError } from "../../components/loading";
import { orderDate } from "../../components/status";
import { deliveryDayLabel, deliveryWhen } from "@shop/delivery-schedule";
import { dayParam, itemsText, zoneTitle } from "./shared";
// Only the ranges a page's text holds are fetched (each file is one unicode-range).
import "@fontsource/noto-emoji/400.css";
import "./print.css";
import { useFunction } from "../../functions";

/**
 * The packing slips (one order a page) and the day sheet (what to make, then
 * every drop-off, zone by zone), as printed on A4 or Letter. The owner's
 * carry who to deliver to, which records a look in each order's history;
 * staff's carry initials and the city, as every list does. The toolbar is
 * not printed. Both are one delivery day's, the Prepare page's ("?day=2026-12-10").
 */
export default function PreparePrintPage() {
  const [params] = useSearchParams();
  const doc = params.get("doc") === "slips" ? "slips" : "sheet";
  const only = params.get("orders")?.split(",").filter(Boolean) ?? [];
  const day = dayParam(params);
  const access = useCan({ resource: "orders", action: "customer-details" });
  const details = access.data?.can === true;
  const { result, query } = useFunction("get-preparation", {
    body: { customerDetails: details, ...(only.length ? { orderIds: only } : {}), ...(day ? { deliveryDate: day } : {}) },
    queryOptions: { enabled: !access.isLoading && !access.error },
    errorNotification: false,
  });

  // Refine's result holds an empty object until the answer arrives.
  if (access.isLoading || query.isPending) return <Loading label={doc === "slips" ? "Preparing the packing slips" : "Preparing the day sheet"} />;
  if (access.error || query.isError || !result.data) {
    return (
      <main className="print-page">
        <QueryError title="Failed to fetch the orders to prepare" message={query.error?.message} onRetry={() => void query.refetch()} />
      </main>
    );
  }
  const prep = result.data;
  const zones = prep.zones;
  const title = doc === "slips" ? "Packing slips" : "Day sheet";

  return (
    <main className="print-page">
      <div className="no-print print-toolbar">
        <Group justify="space-between" wrap="wrap">
          <Anchor component={Link} to={day ? `/prepare?day=${day}` : "/prepare"}>
            Back to Prepare
          </Anchor>
          <Button onClick={() => window.print()}>Print {title.toLowerCase()}</Button>
        </Group>
        <Alert color={details ? "chocolate" : "gray"} variant="light" mt="sm">
          {details
            ? "These pages show each customer's name, address and phone; each order's history records that you were shown them."
            : "Names and addresses are the owner's to print: these pages show initials and the city."}
        </Alert>
      </div>
      {zones.length === 0 ? (
        <Text>{day ? `Nothing to prepare for ${deliveryDayLabel(day)}.` : "Nothing to prepare: every paid order has shipped."}</Text>
      ) : null}
      {doc === "slips" ? <Slips zones={zones} day={day} /> : <DaySheet prep={prep} zones={zones} title={title} day={day} />}
    </main>
  );
}

type Zones = Preparation["zones"];

const printedAt = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "full", timeStyle: "short", timeZone: "America/Los_Angeles" });

/** An order's day and window in words, or the day listed for an order placed before delivery days. */
const orderWhen = (order: PreparationOrder, day: string | null) =>
  order.delivery_date ? deliveryWhen(order.delivery_date, order.delivery_slot_label) : day ? deliveryDayLabel(day) : null;

function DaySheet({ prep, zones, title, day }: { prep: Preparation; zones: Zones; title: string; day: string | null }) {
  const orders = zones.flatMap((zone) => zone.orders);
  let stop = 0;
  return (
    <article className="day-sheet">
      <header className="sheet-header">
        <h1>
          {brand.name} · {title}
        </h1>
        {day ? <p className="sheet-day">Deliveries for {deliveryDayLabel(day)}</p> : null}
        <p>
          {printedAt(prep.generated_at)} · {orders.length} order{orders.length === 1 ? "" : "s"}
          {orders.length < prep.order_count ? ` of ${prep.order_count} not yet shipped` : ""}
        </p>
      </header>
      <section>
        <h2>To make</h2>
        <table className="sheet-table to-make">
          <tbody>
            {prep.to_make.map((line) => (
              <tr key={line.product_id}>
                <td className="count">{line.quantity}</td>
                <td>{line.name}</td>
                <td className="tick" aria-label="Made">
                  ☐
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {zones.map((zone) => (
        <section key={zone.name} className="zone">
          <h2>{zoneTitle(zone)}</h2>
          <table className="sheet-table stops">
            <colgroup>
              <col className="col-stop" />
              <col className="col-miles" />
              <col className="col-order" />
              <col className="col-to" />
              <col />
              <col className="col-done" />
            </colgroup>
            <thead>
              <tr>
                <th>Stop</th>
                <th>Miles</th>
                <th>Order</th>
                <th>Deliver to</th>
                <th>Items</th>
                <th>Done</th>
              </tr>
            </thead>
            <tbody>
              {zone.orders.map((order) => {
                stop += 1;
                return (
                  <tr key={order.id}>
                    <td className="count">{stop}</td>
                    <td>{order.distance_miles.toFixed(1)}</td>
                    <td>
                      <span className="mono">{order.short_id}</span>
                      {order.delivery_slot_label ? <div className="note">{order.delivery_slot_label}</div> : null}
                    </td>
                    <td>
                      <DeliverTo order={order} />
                    </td>
                    <td>{itemsText(order)}</td>
                    <td className="tick">☐</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ))}
    </article>
  );
}

function Slips({ zones, day }: { zones: Zones; day: string | null }) {
  return (
    <>
      {zones.flatMap((zone) =>
        zone.orders.map((order) => (
          <article key={order.id} className="slip" aria-label={`Packing slip, order ${order.short_id}`}>
            <header className="sheet-header">
              <h1>{brand.name} · Packing slip</h1>
              {orderWhen(order, day) ? <p className="sheet-day">Delivery: {orderWhen(order, day)}</p> : null}
              <p>
                Order <strong className="mono">{order.short_id}</strong> · placed {orderDate(order.created_at)}
                {order.refund_pending ? " · REFUND PENDING: do not send" : ""}
              </p>
            </header>
            <section className="slip-address">
              <h2>Deliver to</h2>
              <DeliverTo order={order} />
              <p className="muted">
                {zoneTitle(zone)} · {order.distance_miles.toFixed(1)} mi from the kitchen
              </p>
            </section>
            <section>
              <h2>In the bag</h2>
              <table className="sheet-table">
                <thead>
                  <tr>
                    <th>Qty</th>
                    <th>Item</th>
                    <th>Packed</th>
                  </tr>
                </thead>
                <tbody>
                  {order.items.map((item) => (
                    <tr key={item.product_id}>
                      <td className="count">{item.quantity}</td>
                      <td>{item.name}</td>
                      <td className="tick">☐</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <p className="slip-note">Keep frozen until delivery. Questions? {brand.contactEmail}</p>
          </article>
        )),
      )}
    </>
  );
}

function DeliverTo({ order }: { order: PreparationOrder }) {
  const delivery = order.delivery;
  if (!delivery) {
    return (
      <div className="deliver-to">
        <strong>{order.customer.initials}</strong>
        <div>
          {order.customer.city}, {order.customer.state}
        </div>
      </div>
    );
  }
  return (
    <div className="deliver-to">
      <strong>
        {delivery.firstName} {delivery.lastName}
      </strong>
      {delivery.phone ? (
        <span className="phone">
          <span className="separator"> · </span>
          {delivery.phone}
        </span>
      ) : null}
      <div>
        {delivery.address}, {delivery.city}, {delivery.state} {delivery.zipCode}
      </div>
      {delivery.notes.map((note) => (
        <div key={note.label} className="note">
          {note.label}: {note.text}
        </div>
      ))}
    </div>
  );
}
