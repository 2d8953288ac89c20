import { Anchor, Card, Group, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { ListStates, TableCard } from "../../components/list-parts";
import { useDebouncedCallback } from "@mantine/hooks";
import { useCan, useTable, type CrudFilter } from "@refinedev/core";
import { formatCents } from "@shop/money";
import {
  ORDERS_PAGE_SIZE,
  ORDER_LIST_DEPTH,
  ORDER_PAYMENT_FILTERS,
  ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  PAYMENT_FILTER_LABELS,
  isTakenPayment,
  shortOrderId,
  type MaskedOrder,
} from "@shop/orders";
import { Link } from "react-router";
import { Pager } from "../../components/pager";
import { EmailFlags, StatusBadge, orderDate } from "../../components/status";
import { PartRefundedBadge, PaymentBadge, RefundPendingBadge, TrackingInfo } from "./payment";
import { StatusSelect } from "./status-select";
import { useWide } from "../../components/wide";

const sortOptions = [
  { value: "created_at:desc", label: "Newest first" },
  { value: "created_at:asc", label: "Oldest first" },
  { value: "total:desc", label: "Highest total" },
  { value: "total:asc", label: "Lowest total" },
];

const valueOf = (filters: CrudFilter[], field: string) => {
  const found = filters.find((filter) => "field" in filter && filter.field === field);
  return found && "value" in found && typeof found.value === "string" ? found.value : "";
};

/** 'Order Management': every order that was paid (and, for the owner, the checkouts given up), masked, with filters, search, sorting and paging kept in the URL. */
export function OrderList() {
  const { tableQuery, result, filters, setFilters, sorters, setSorters, currentPage, setCurrentPage, pageCount } = useTable<MaskedOrder>({
    resource: "orders",
    pagination: { pageSize: ORDERS_PAGE_SIZE },
    sorters: { initial: [{ field: "created_at", order: "desc" }] },
    syncWithLocation: true,
    errorNotification: (error) => ({
      key: "orders-error",
      type: "error",
      description: "Failed to fetch orders",
      message: error?.message ?? "",
    }),
  });

  const setFilter = (field: string, value: string) =>
    setFilters(
      [
        {
          field,
          operator: field === "q" ? "contains" : "eq",
          value: value || undefined,
        },
      ],
      "merge",
    );
  const search = useDebouncedCallback((value: string) => setFilter("q", value.trim()), 300);
  const wide = useWide("md");
  // The checkouts given up unpaid are the owner's (get-given-up-checkouts): offered only to whom the shop lets see them.
  const givenUp = useCan({ resource: "orders", action: "given-up" }).data?.can === true;
  const sort = sorters[0] ? `${sorters[0].field}:${sorters[0].order}` : "created_at:desc";

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>Orders</Title>
          <Text c="dimmed" size="sm">
            Customer details are masked here. Full details are sent to the fulfilment team by email.
          </Text>
        </div>
      </Group>

      <Card withBorder radius="lg">
        <Group align="end" wrap="wrap">
          <Select
            label="Status"
            data={[
              { value: "", label: "All statuses" },
              ...ORDER_STATUSES.map((value) => ({
                value,
                label: ORDER_STATUS_LABELS[value],
              })),
            ]}
            value={valueOf(filters, "status")}
            onChange={(value) => setFilter("status", value ?? "")}
            allowDeselect={false}
            w={170}
          />
          <Select
            label="Payment"
            data={[
              ...ORDER_PAYMENT_FILTERS.map((value) => ({ value: value === "all" ? "" : value, label: PAYMENT_FILTER_LABELS[value] })),
              ...(givenUp ? [{ value: "given-up", label: PAYMENT_FILTER_LABELS["given-up"] }] : []),
            ]}
            value={valueOf(filters, "payment")}
            onChange={(value) => setFilter("payment", value ?? "")}
            allowDeselect={false}
            w={180}
          />
          <TextInput
            label="Search"
            placeholder="Order ID, email, name or phone"
            defaultValue={valueOf(filters, "q")}
            onChange={(event) => search(event.currentTarget.value)}
            w={260}
          />
          <TextInput
            type="datetime-local"
            label={sort === "created_at:asc" ? "Placed at or after" : "Placed at or before"}
            value={valueOf(filters, "from")}
            onChange={(event) => setFilter("from", event.currentTarget.value)}
            w={220}
          />
          <Select
            label="Sort"
            data={sortOptions}
            value={sort}
            onChange={(value) => {
              const [field = "created_at", order = "desc"] = (value ?? "").split(":");
              setSorters([{ field, order: order === "asc" ? "asc" : "desc" }]);
            }}
            allowDeselect={false}
            w={170}
          />
        </Group>
      </Card>

      {tableQuery.isSuccess ? <OrderCount total={result.total ?? 0} capped={tableQuery.data?.totalCapped === true} /> : null}

      {/* On a phone each order is a card, its status and the control to change it in view; from md up, the table. */}
      {wide ? null : (
        <Stack gap="sm" aria-label="Orders" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
          {result.data.map((order) => (
            <OrderCard key={order.id} order={order} />
          ))}
        </Stack>
      )}
      {wide ? (
        <TableCard
          minWidth={1320}
          striped
          highlightOnHover
          columns={["Order ID", "Date", "Customer", "Location", "Items", "Total", "Status", "Emails", "Change status"]}
        >
          {result.data.map((order) => (
            <Table.Tr key={order.id}>
              <Table.Td>
                <Anchor component={Link} to={`/orders/${order.id}`} ff="monospace" fw={700}>
                  {shortOrderId(order.id)}
                </Anchor>
              </Table.Td>
              <Table.Td miw={120}>{orderDate(order.created_at)}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={700}>
                  {order.shipping_info.firstName} {order.shipping_info.lastName}
                </Text>
                <Text size="xs" c="dimmed">
                  {order.customer_email}
                </Text>
              </Table.Td>
              <Table.Td>
                {order.shipping_info.city}, {order.shipping_info.state}
              </Table.Td>
              <Table.Td miw={190}>
                {order.items.map((item) => (
                  <Text key={item.product.id} size="sm">
                    {item.quantity} × {item.product.name}
                  </Text>
                ))}
              </Table.Td>
              <Table.Td fw={700}>{formatCents(order.total_cents)}</Table.Td>
              <Table.Td>
                <OrderBadges order={order} />
                <TrackingInfo tracking={order.tracking} size="xs" />
              </Table.Td>
              <Table.Td className="nowrap">
                <EmailFlags order={order} wrap={false} />
              </Table.Td>
              <Table.Td>
                <OrderStatusControl order={order} />
              </Table.Td>
            </Table.Tr>
          ))}
        </TableCard>
      ) : null}
      <ListStates query={tableQuery} what="orders" count={result.data.length} empty="No orders found" />

      {/* Pages go ORDER_LIST_DEPTH orders deep; older orders are a date away ("Placed at or before"). */}
      <Pager pageCount={Math.min(pageCount, Math.floor(ORDER_LIST_DEPTH / ORDERS_PAGE_SIZE))} currentPage={currentPage} onChange={setCurrentPage} />
    </Stack>
  );
}

/** Where an order stands: its fulfilment and what happened to its money; a checkout given up has only the latter. */
function OrderBadges({ order }: { order: MaskedOrder }) {
  return (
    <Group gap={4} wrap="wrap" justify="flex-start">
      {isTakenPayment(order.payment_status) ? <StatusBadge status={order.status} /> : null}
      {order.payment_status !== "paid" ? <PaymentBadge status={order.payment_status} /> : null}
      {order.payment_status === "paid" && order.refunded_cents > 0 ? <PartRefundedBadge /> : null}
      {order.refund_pending ? <RefundPendingBadge /> : null}
    </Group>
  );
}

/** The control that moves an order along; a checkout never paid has nothing to move. */
function OrderStatusControl({ order }: { order: MaskedOrder }) {
  if (!isTakenPayment(order.payment_status)) {
    return (
      <Text size="sm" c="dimmed">
        Never paid
      </Text>
    );
  }
  return (
    <StatusSelect orderId={order.id} status={order.status} label={`Status of order ${shortOrderId(order.id)}`} refunded={order.payment_status === "refunded"} />
  );
}

/** How many orders the list holds: counted up to 10,000, then "10,000+"; past the pages' depth, how to reach the older ones. */
function OrderCount({ total, capped }: { total: number; capped: boolean }) {
  const deep = capped || total > ORDER_LIST_DEPTH;
  return (
    <Text size="sm" c="dimmed" data-testid="order-count">
      {capped ? `${ORDER_LIST_DEPTH.toLocaleString("en-US")}+ orders` : `${total.toLocaleString("en-US")} ${total === 1 ? "order" : "orders"}`}
      {deep ? `. Pages show the first ${ORDER_LIST_DEPTH.toLocaleString("en-US")}; to see older orders, set "Placed at or before".` : ""}
    </Text>
  );
}

/** One order on a phone: what the table's row says, stacked so that its status and its control fit 390 px. */
function OrderCard({ order }: { order: MaskedOrder }) {
  return (
    <Card component="li" withBorder radius="lg" p="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Anchor component={Link} to={`/orders/${order.id}`} ff="monospace" fw={700}>
            {shortOrderId(order.id)}
          </Anchor>
          <Text size="xs" c="dimmed">
            {orderDate(order.created_at)}
          </Text>
        </div>
        <OrderBadges order={order} />
      </Group>
      <Text size="sm" fw={700} mt="xs">
        {order.shipping_info.firstName} {order.shipping_info.lastName} · {order.shipping_info.city}, {order.shipping_info.state}
      </Text>
      <Text size="xs" c="dimmed">
        {order.customer_email}
      </Text>
      <Text size="sm" mt={4}>
        {order.items.map((item) => `${item.quantity} × ${item.product.name}`).join(", ")}
      </Text>
      <TrackingInfo tracking={order.tracking} size="xs" />
      <Group justify="space-between" align="center" mt="sm" wrap="nowrap">
        <Text fw={700}>{formatCents(order.total_cents)}</Text>
        <OrderStatusControl order={order} />
      </Group>
      <Group mt={6}>
        <EmailFlags order={order} />
      </Group>
    </Card>
  );
}
