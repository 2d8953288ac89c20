import { Anchor, Badge, Button, Card, Checkbox, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useInvalidate, useNotification } from "@refinedev/core";
import { ORDER_STATUS_LABELS, type Preparation, type PreparationOrder } from "@shop/orders";
import { checkTracking } from "@shop/tracking";
import { deliveryDayLabel } from "@shop/delivery-schedule";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { callFunction } from "../../api";
import { LoadingRows, QueryError } from "../../components/loading";
import { StatusBadge } from "../../components/status";
import { useWide } from "../../components/wide";
import { CarrierSelect, ShipActions, trackingProblem } from "../orders/status-select";
import { useAdminForm } from "../../forms";
import { dayParam, itemsText, zoneTitle } from "./shared";
import { useFunction } from "../../functions";
import type { FunctionBody } from "~/functions/registry.server";

/**
 * Today's work (issue 23, item 2): the paid orders not yet shipped, zone by
 * zone and nearest the kitchen first, how many of each product to make, the
 * packing slips and the day sheet to print, and the orders to move along
 * together (preparing; shipped, with each one's tracking). One delivery day's
 * work at a time (decision 100), the day in the address ("?day=2026-12-10")
 * so that the printed pages and a reload show the same day; without one the
 * page opens on the kitchen's next delivery day.
 */
export default function PreparePage() {
  const [params, setParams] = useSearchParams();
  const day = dayParam(params);
  const { result, query } = useFunction("get-preparation", { body: day ? { deliveryDate: day } : {}, errorNotification: false });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [shipping, setShipping] = useState(false);
  const [working, setWorking] = useState<string | null>(null);
  const invalidate = useInvalidate();
  const { open } = useNotification();
  // Refine's result holds an empty object until the answer arrives.
  const answer = query.isSuccess ? result.data : undefined;
  const opening = answer?.next_delivery_date ?? null;
  // The first answer (every day's) names the next delivery day: the page opens on it, and lists nothing before.
  // A day chosen before that answer came stays chosen.
  const chosenDay = useRef(false);
  useEffect(() => {
    if (!day && opening && !chosenDay.current) setParams({ day: opening }, { replace: true });
  }, [day, opening, setParams]);
  const prep = answer && (day || !opening) && answer.delivery_date === day ? answer : undefined;
  const chooseDay = (next: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(next) || next === day) return;
    chosenDay.current = true;
    setSelected(new Set());
    setParams({ day: next });
  };
  const orders = useMemo(() => prep?.zones.flatMap((zone) => zone.orders) ?? [], [prep]);
  const chosen = orders.filter((order) => selected.has(order.id));

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  /** One update-order-status per order (each audited, each customer emailed once), then the page again. */
  const move = async (label: string, targets: PreparationOrder[], body: (order: PreparationOrder) => Omit<FunctionBody<"update-order-status">, "orderId">) => {
    setWorking(label);
    const failed: string[] = [];
    for (const order of targets) {
      try {
        await callFunction("update-order-status", { orderId: order.id, ...body(order) });
      } catch (error) {
        failed.push(`${order.short_id}: ${(error as { message?: string }).message ?? "failed"}`);
      }
    }
    setWorking(null);
    setSelected(new Set());
    await query.refetch();
    void invalidate({ resource: "orders", invalidates: ["list"] });
    const done = targets.length - failed.length;
    open?.({
      key: "prepare-bulk",
      type: failed.length ? "error" : "success",
      // The toast's title is `description`, its text `message` (providers/notifications.tsx).
      description: `${label}: ${done} of ${targets.length} order${targets.length === 1 ? "" : "s"} updated`,
      message: failed.length ? `Not updated: ${failed.join("; ")}` : "Each customer is emailed about the change.",
    });
  };

  const printHref = (doc: "slips" | "sheet") =>
    `/prepare/print?doc=${doc}${day ? `&day=${day}` : ""}${chosen.length ? `&orders=${chosen.map((order) => order.id).join(",")}` : ""}`;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="end" wrap="wrap">
        <div>
          <Title order={2}>Prepare</Title>
          <Text c="dimmed" size="sm">
            Paid orders not yet shipped, by delivery zone, nearest the kitchen first.
          </Text>
        </div>
        {orders.length ? (
          <Group gap="xs">
            <Button component={Link} to={printHref("sheet")} variant="default">
              Print day sheet{chosen.length ? ` (${chosen.length})` : ""}
            </Button>
            <Button component={Link} to={printHref("slips")} variant="default">
              Print packing slips{chosen.length ? ` (${chosen.length})` : ""}
            </Button>
          </Group>
        ) : null}
      </Group>

      <Group justify="space-between" align="end" wrap="wrap" gap="sm">
        <div>
          <Title order={3} size="h3" aria-live="polite">
            {day ? `Deliveries for ${deliveryDayLabel(day)}` : opening === null && answer ? "Deliveries for every day" : "\u00a0"}
          </Title>
          <Text c="dimmed" size="sm">
            Orders placed before delivery days are on every day&apos;s list.
          </Text>
        </div>
        <TextInput
          type="date"
          label="Delivery day"
          value={day ?? ""}
          onChange={(event) => chooseDay(event.currentTarget.value)}
          w={{ base: "100%", xs: 200 }}
        />
      </Group>

      {query.isLoading || (answer && !prep) ? <LoadingRows label="Loading the day's orders…" /> : null}
      {query.isError ? <QueryError title="Failed to fetch the orders to prepare" message={query.error?.message} onRetry={() => void query.refetch()} /> : null}

      {prep && orders.length === 0 ? (
        <Card withBorder radius="lg">
          <Text fw={700}>Nothing to prepare</Text>
          <Text c="dimmed" size="sm">
            {day
              ? `No paid order waits for delivery on ${deliveryDayLabel(day)}. Orders show here once they are paid.`
              : "Every paid order has shipped. New orders show here once they are paid."}
          </Text>
        </Card>
      ) : null}

      {prep && orders.length > 0 ? (
        <>
          <Card withBorder radius="lg" component="section" aria-labelledby="to-make">
            <Title order={3} size="h4" id="to-make">
              To make
            </Title>
            <Text c="dimmed" size="sm" mb="sm">
              For the {prep.listed_count} order{prep.listed_count === 1 ? "" : "s"} below
              {prep.listed_count < prep.order_count ? ` (the oldest ${prep.listed_count} of ${prep.order_count}; ship some to see the rest)` : ""}.
            </Text>
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
              {prep.to_make.map((line) => (
                <Card component="li" key={line.product_id} withBorder radius="md" p="sm" bg="#fffaf3">
                  {/* A count and its product: one line of a list, not a heading. */}
                  <Text component="span" display="block" fz={28} fw={700} ff="Fredoka, sans-serif" lh={1.1}>
                    {line.quantity}
                  </Text>
                  <Text component="span" display="block" size="sm">
                    {line.name}
                  </Text>
                </Card>
              ))}
            </SimpleGrid>
          </Card>

          <Card withBorder radius="lg" p="sm" style={{ position: "sticky", top: 72, zIndex: 2 }}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" fw={700} role="status">
                {chosen.length ? `${chosen.length} selected` : "Select orders to move them along together"}
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  disabled={!chosen.some((order) => order.status === "pending") || working !== null}
                  loading={working === "Marked preparing"}
                  onClick={() =>
                    void move(
                      "Marked preparing",
                      chosen.filter((order) => order.status === "pending"),
                      () => ({ newStatus: "preparing" }),
                    )
                  }
                >
                  Mark preparing
                </Button>
                <Button size="xs" disabled={!chosen.length || working !== null} loading={working === "Marked shipped"} onClick={() => setShipping(true)}>
                  Mark shipped…
                </Button>
              </Group>
            </Group>
          </Card>

          {prep.zones.map((zone) => (
            <ZoneOrders key={zone.name} zone={zone} selected={selected} onToggle={toggle} />
          ))}
        </>
      ) : null}

      <ShipSelected
        orders={chosen}
        opened={shipping}
        onClose={() => setShipping(false)}
        onShip={(tracking) => {
          setShipping(false);
          void move("Marked shipped", chosen, (order) => ({ newStatus: "shipped", ...tracking[order.id] }));
        }}
      />
    </Stack>
  );
}

function ZoneOrders({ zone, selected, onToggle }: { zone: Preparation["zones"][number]; selected: Set<string>; onToggle: (id: string, on: boolean) => void }) {
  const wide = useWide("md");
  const headingId = `zone-${zone.name}`;
  const allSelected = zone.orders.every((order) => selected.has(order.id));
  const selectAll = (
    <Checkbox
      aria-label={`Select all orders in the ${zone.name} zone`}
      label={wide ? undefined : "Select all"}
      checked={allSelected}
      indeterminate={!allSelected && zone.orders.some((order) => selected.has(order.id))}
      onChange={(event) => zone.orders.forEach((order) => onToggle(order.id, event.currentTarget.checked))}
    />
  );
  return (
    <Card withBorder radius="lg" component="section" aria-labelledby={headingId} p={wide ? 0 : "md"}>
      <Group justify="space-between" p={wide ? "md" : 0} pb="xs" wrap={wide ? "nowrap" : "wrap"} gap="xs">
        <Title order={3} size="h4" id={headingId}>
          {zoneTitle(zone)}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <Badge variant="light" color="chocolate" style={{ flexShrink: 0, minWidth: "max-content" }}>
            {zone.orders.length} order{zone.orders.length === 1 ? "" : "s"}
          </Badge>
          {wide ? null : selectAll}
        </Group>
      </Group>
      {wide ? (
        // Fixed columns, so that every zone's rows line up with the others'.
        <Table striped verticalSpacing="sm" horizontalSpacing="md" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={56}>{selectAll}</Table.Th>
              <Table.Th w={110}>Distance</Table.Th>
              <Table.Th w={130}>Order ID</Table.Th>
              <Table.Th w="24%">Customer</Table.Th>
              <Table.Th>Items</Table.Th>
              <Table.Th w={190}>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {zone.orders.map((order) => (
              <Table.Tr key={order.id}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Select order ${order.short_id}`}
                    checked={selected.has(order.id)}
                    onChange={(event) => onToggle(order.id, event.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td fw={700}>{order.distance_miles.toFixed(1)} mi</Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/orders/${order.id}`} ff="monospace" fw={700}>
                    {order.short_id}
                  </Anchor>
                  <DeliveryWindow order={order} />
                </Table.Td>
                <Table.Td>
                  {order.customer.initials} · {order.customer.city}
                </Table.Td>
                <Table.Td>{itemsText(order)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <StatusBadge status={order.status} />
                    {order.refund_pending ? (
                      <Badge color="red" variant="light">
                        Refund pending
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
          {zone.orders.map((order) => (
            <Card component="li" key={order.id} withBorder radius="md" p="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Checkbox
                  aria-label={`Select order ${order.short_id}`}
                  checked={selected.has(order.id)}
                  onChange={(event) => onToggle(order.id, event.currentTarget.checked)}
                  label={
                    <Text span ff="monospace" fw={700}>
                      {order.short_id}
                    </Text>
                  }
                />
                <Group gap={4} wrap="nowrap">
                  <Text size="sm" fw={700}>
                    {order.distance_miles.toFixed(1)} mi
                  </Text>
                  <StatusBadge status={order.status} />
                </Group>
              </Group>
              <DeliveryWindow order={order} />
              <Text size="sm" mt={4}>
                {order.customer.initials} · {order.customer.city}
              </Text>
              <Text size="sm">{itemsText(order)}</Text>
              <Group justify="space-between" mt={4}>
                {order.refund_pending ? (
                  <Badge color="red" variant="light">
                    Refund pending
                  </Badge>
                ) : (
                  <span />
                )}
                <Anchor component={Link} to={`/orders/${order.id}`} size="sm">
                  Open order {order.short_id}
                </Anchor>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** The order's delivery window ("9am–12pm"), when it has one; nothing for an order without a window or a day. */
function DeliveryWindow({ order }: { order: PreparationOrder }) {
  if (!order.delivery_slot_label) return null;
  return (
    <Text size="sm" fw={600} mt={2}>
      Window {order.delivery_slot_label}
    </Text>
  );
}

type Tracking = Record<string, { carrier: string | null; trackingNumber: string | null }>;

/** Shipped, for the selected orders at once: one carrier, each order's own tracking number (both optional), checked as the server checks them. */
function ShipSelected({
  orders,
  opened,
  onClose,
  onShip,
}: {
  orders: PreparationOrder[];
  opened: boolean;
  onClose: () => void;
  onShip: (tracking: Tracking) => void;
}) {
  // Each order's number by its id ("numbers.<id>"), with its message there too.
  const { form } = useAdminForm<{ carrier: string; numbers: Record<string, string> }>({ carrier: "", numbers: {} });
  const { carrier, numbers } = form.getValues();

  const submit = () => {
    const tracking: Tracking = {};
    const found: Record<string, string> = {};
    for (const order of orders) {
      const checked = checkTracking({ carrier, trackingNumber: numbers[order.id] ?? "" });
      if (checked.ok) tracking[order.id] = { carrier: checked.carrier, trackingNumber: checked.trackingNumber };
      else found[checked.field === "carrier" ? "carrier" : `numbers.${order.id}`] = trackingProblem(checked);
    }
    form.setErrors(found);
    if (Object.keys(found).length === 0) onShip(tracking);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Ship ${orders.length} order${orders.length === 1 ? "" : "s"}`} centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Each customer gets the &quot;on its way&quot; email, with the carrier and their tracking number when given. Leave them empty if you have none.
          </Text>
          <CarrierSelect {...form.getInputProps("carrier")} />
          {orders.map((order) => (
            <TextInput
              key={order.id}
              label={`Tracking number, order ${order.short_id} (${ORDER_STATUS_LABELS[order.status]})`}
              // Its own value even for an order chosen after the dialog first opened (the form has no key for it yet).
              value={numbers[order.id] ?? ""}
              onChange={(event) => {
                form.clearFieldError(`numbers.${order.id}`);
                form.setFieldValue(`numbers.${order.id}`, event.currentTarget.value);
              }}
              autoComplete="off"
              error={form.errors[`numbers.${order.id}`]}
            />
          ))}
          <ShipActions onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
