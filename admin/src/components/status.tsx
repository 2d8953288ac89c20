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

/** Each flag in words: the email and to whom it went. */
const flags: { key: keyof Flags; label: string; description: string }[] = [
  { key: "chef_notified", label: "Kitchen", description: "the fulfilment team's email" },
  { key: "preparing_sent", label: "Preparing", description: "the customer's 'Preparing' email" },
  { key: "shipped_sent", label: "Shipped", description: "the customer's 'Shipped' email" },
  { key: "delivered_sent", label: "Delivered", description: "the customer's 'Delivered' email" },
];

/**
 * The four email flags of an order (requirements §3), each in words, in the
 * case it is written: a sent one green with a tick, one not yet sent an
 * outline. The accessible name starts with the visible word.
 */
export function EmailFlags({ order, wrap = true }: { order: Flags; wrap?: boolean }) {
  return (
    <Group gap={4} wrap={wrap ? "wrap" : "nowrap"}>
      {flags.map((flag) => {
        const sent = order[flag.key];
        const said = `${flag.label}: ${flag.description} ${sent ? "sent" : "not sent yet"}`;
        return (
          <Tooltip key={flag.key} label={said}>
            <Badge
              size="sm"
              tt="none"
              variant={sent ? "filled" : "outline"}
              color={sent ? flagSetGreen : "gray.7"}
              aria-label={said}
              data-testid="email-flag"
              style={unsqueezed}
            >
              {sent ? `✓ ${flag.label}` : flag.label}
            </Badge>
          </Tooltip>
        );
      })}
    </Group>
  );
}

export const orderDate = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "America/Los_Angeles" });
