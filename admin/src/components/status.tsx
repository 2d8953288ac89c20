import { Badge, Group, Tooltip } from "@mantine/core";
import type { MaskedOrder, OrderStatus } from "@shop/orders";

/** Badges keep their full width inside a crowded table row. */
const unsqueezed = { flexShrink: 0, minWidth: "max-content" } as const;

/**
 * Badge colours of requirements §4: pending yellow, preparing blue, shipped purple,
 * delivered green. Each is a clear tint of its colour behind a deep shade of
 * it, at least 4.5:1 (Mantine's light variant gives 2-4:1 at badge size, and
 * its yellow text reads orange).
 */
const statusColors: Record<OrderStatus, { bg: string; c: string }> = {
  pending: { bg: "#ffe066", c: "#5c4200" },
  preparing: { bg: "#d0ebff", c: "#1864ab" },
  shipped: { bg: "#f3d9fa", c: "#862e9c" },
  delivered: { bg: "#d3f9d8", c: "#1f6b30" },
  cancelled: { bg: "#e9ecef", c: "#495057" },
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <Badge {...statusColors[status]} variant="light" data-testid="status-badge" style={unsqueezed}>
      {status}
    </Badge>
  );
}

/** An email flag that is set: white on a green deep enough for 4.5:1 at badge size. */
const flagSetGreen = "#237032";

type Flags = Pick<MaskedOrder, "chef_notified" | "preparing_sent" | "shipped_sent" | "delivered_sent">;

const flags: { key: keyof Flags; label: string; description: string }[] = [
  { key: "chef_notified", label: "Chef", description: "Fulfilment team emailed" },
  { key: "preparing_sent", label: "Prep", description: "'Preparing' email sent" },
  { key: "shipped_sent", label: "Ship", description: "'Shipped' email sent" },
  { key: "delivered_sent", label: "Deliv", description: "'Delivered' email sent" },
];

/** The four email flags of an order (requirements §3). */
export function EmailFlags({ order }: { order: Flags }) {
  return (
    <Group gap={4} wrap="nowrap">
      {flags.map((flag) => (
        <Tooltip key={flag.key} label={`${flag.description}: ${order[flag.key] ? "yes" : "not yet"}`}>
          <Badge
            size="sm"
            variant={order[flag.key] ? "filled" : "outline"}
            color={order[flag.key] ? flagSetGreen : "gray.7"}
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

export const orderDate = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "America/Los_Angeles" });
