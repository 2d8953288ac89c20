import { Alert, Button, Card, Group, NativeSelect, Stack, Text, TextInput, Title } from "@mantine/core";
import { useInvalidate } from "@refinedev/core";
import { deliveryWhen } from "@shop/delivery-schedule";
import type { MaskedOrderWithHistory } from "@shop/orders";
import { useState } from "react";
import { orderDate } from "../../components/status";
import { useFunction, useFunctionMutation } from "../../functions";
import { answerToasts } from "../../toasts";
import { shopToday } from "../prepare/shared";

/**
 * The order's delivery day and window in words (decision 100), its moves
 * (from → to, who, when), and for a paid order not yet on its way a form to
 * move it: any day from today on, beyond a full day if need be (the server
 * says so in its warnings, shown here until the next move).
 */
export function DeliveryDay({ order }: { order: MaskedOrderWithHistory }) {
  const movable = order.payment_status === "paid" && (order.status === "pending" || order.status === "preparing");
  return (
    <Card withBorder radius="lg" component="section" aria-labelledby="delivery-day">
      <Stack gap="sm">
        <Title order={3} size="h4" id="delivery-day">
          Delivery day
        </Title>
        <Text fw={700} data-testid="delivery-when">
          {order.delivery_date ? deliveryWhen(order.delivery_date, order.delivery_slot_label) : "No day chosen (placed before delivery days)"}
        </Text>
        {movable ? <MoveDelivery order={order} /> : null}
        {order.delivery_history.length > 0 ? (
          <div>
            <Text size="sm" fw={700} id="delivery-moves">
              Moves
            </Text>
            <Stack component="ul" aria-labelledby="delivery-moves" gap={6} p={0} m={0} style={{ listStyle: "none" }}>
              {order.delivery_history.map((move, index) => (
                <li key={`${move.changed_at}-${index}`}>
                  <Text size="sm">
                    {move.from ?? "No day"} → {move.to ?? "No day"}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {move.changed_by === "customer" ? "By the customer" : `By ${move.changed_by}`}, {orderDate(move.changed_at)}
                  </Text>
                </li>
              ))}
            </Stack>
          </div>
        ) : null}
      </Stack>
    </Card>
  );
}

function MoveDelivery({ order }: { order: MaskedOrderWithHistory }) {
  const [date, setDate] = useState(order.delivery_date ?? "");
  const [slot, setSlot] = useState(order.delivery_slot ?? "");
  const [warnings, setWarnings] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const settings = useFunction("get-settings", { errorNotification: false });
  const slots = settings.query.isSuccess ? (settings.result.data?.delivery.slots ?? []) : [];
  const { call, mutation } = useFunctionMutation("update-order-delivery");
  const invalidate = useInvalidate();
  const today = shopToday();
  const unchanged = date === (order.delivery_date ?? "") && slot === (order.delivery_slot ?? "");

  const submit = () => {
    setRefusal(null);
    setWarnings([]);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      setRefusal("Choose a day to move the delivery to.");
      return;
    }
    call(
      { orderId: order.id, deliveryDate: date, deliverySlot: slots.length ? slot || null : null },
      // The refusal shows beside the button as well as in the toast.
      answerToasts(`order-delivery-${order.id}`, { success: "Delivery moved", error: "Failed to move the delivery" }),
      {
        onSuccess: ({ data }) => {
          setWarnings(data.warnings);
          void invalidate({ resource: "orders", invalidates: ["list", "detail"], id: order.id });
        },
        onError: (error) => setRefusal(error.message),
      },
    );
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      noValidate
      aria-label="Move the delivery"
    >
      <Stack gap="xs">
        <Group align="end" gap="sm" wrap="wrap">
          <TextInput
            type="date"
            label="Move to day"
            min={today}
            value={date}
            onChange={(event) => setDate(event.currentTarget.value)}
            w={{ base: "100%", xs: 190 }}
            required
          />
          {slots.length ? (
            <NativeSelect
              label="Window"
              value={slot}
              onChange={(event) => setSlot(event.currentTarget.value)}
              data={[{ value: "", label: "Whole day" }, ...slots.map((window) => ({ value: window.id, label: window.label }))]}
              w={{ base: "100%", xs: 170 }}
            />
          ) : null}
          <Button type="submit" loading={mutation.isPending} disabled={unchanged}>
            Move delivery
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          Any day from today on; the customer is emailed the new day.
        </Text>
        {refusal ? (
          <Alert color="red" variant="light" role="alert">
            {refusal}
          </Alert>
        ) : null}
        {warnings.map((warning) => (
          <Alert key={warning} color="yellow" variant="light" styles={{ message: { color: "#5c3900" } }} data-testid="delivery-warning">
            Moved anyway: {warning}
          </Alert>
        ))}
      </Stack>
    </form>
  );
}
