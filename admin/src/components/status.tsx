import { Badge, Group, Tooltip } from "@mantine/core";
import type { MaskedOrder, OrderStatus } from "@shop/orders";

/** Badges keep their full width inside a crowded table row. */
const unsqueezed = { flexShrink: 0, minWidth: "max-content" } as const;

/** Badge colours of spec §4. */
const statusColors: Record<OrderStatus, string> = {
  pending: "yellow",
  preparing: "blue",
  shipped: "grape",
  delivered: "green",
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <Badge color={statusColors[status]} variant="light" data-testid="status-badge" style={unsqueezed}>
      {status}
    </Badge>
  );
}

type Flags = Pick<MaskedOrder, "chef_notified" | "preparing_sent" | "shipped_sent" | "delivered_sent">;

const flags: { key: keyof Flags; label: string; description: string }[] = [
  { key: "chef_notified", label: "Chef", description: "Fulfilment team emailed" },
  { key: "preparing_sent", label: "Prep", description: "'Preparing' email sent" },
  { key: "shipped_sent", label: "Ship", description: "'Shipped' email sent" },
  { key: "delivered_sent", label: "Deliv", description: "'Delivered' email sent" },
];

/** The four email flags of an order (spec §3). */
export function EmailFlags({ order }: { order: Flags }) {
  return (
    <Group gap={4} wrap="nowrap">
      {flags.map((flag) => (
        <Tooltip key={flag.key} label={`${flag.description}: ${order[flag.key] ? "yes" : "not yet"}`}>
          <Badge
            size="sm"
            variant={order[flag.key] ? "filled" : "outline"}
            color={order[flag.key] ? "green" : "gray"}
            aria-label={`${flag.description}: ${order[flag.key] ? "yes" : "not yet"}`}
            style={unsqueezed}
          >
            {flag.label}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}

export const orderDate = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "America/Los_Angeles" });
