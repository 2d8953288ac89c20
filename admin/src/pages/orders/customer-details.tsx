import { Alert, Button, Paper, Text } from "@mantine/core";
import { CanAccess, useInvalidate } from "@refinedev/core";
import type { CustomerDetails } from "@shop/orders";
import { useState } from "react";
import { useFunctionMutation } from "../../functions";

/**
 * The owner's "Show customer details" (hidden for staff by Refine's access
 * control): asks the shop for the order's name, email, phone and address,
 * which records the look in the order's history, then shows them here. They
 * live in this component only, gone when the page is left.
 */
export function CustomerDetailsButton({ orderId }: { orderId: string }) {
  const [details, setDetails] = useState<CustomerDetails | null>(null);
  const [error, setError] = useState<string | null>(null);
  const invalidate = useInvalidate();
  const { call, mutation } = useFunctionMutation("get-customer-details");

  const show = () => {
    setError(null);
    call(
      { orderId },
      { errorNotification: false, successNotification: false },
      {
        onSuccess: (response) => {
          setDetails(response.data);
          // The look is in the order's history now.
          void invalidate({ resource: "orders", invalidates: ["detail"], id: orderId });
        },
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <CanAccess resource="orders" action="customer-details">
      {details ? (
        <Paper withBorder radius="md" p="sm" aria-label="Customer details" role="group">
          <Text size="sm" c="dimmed" mb={4}>
            Full details (this look is recorded in the history)
          </Text>
          <Text fw={700}>
            {details.firstName} {details.lastName}
          </Text>
          <Text>{details.email}</Text>
          <Text>{details.phone ?? "No phone given"}</Text>
          <Text>{details.address}</Text>
          <Text>
            {details.city}, {details.state} {details.zipCode}
          </Text>
          {details.notes.map((note) => (
            <Text key={note.label} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {note.label}: {note.text}
            </Text>
          ))}
        </Paper>
      ) : (
        <Button variant="default" onClick={show} loading={mutation.isPending} style={{ alignSelf: "flex-start" }}>
          Show customer details
        </Button>
      )}
      {error ? (
        <Alert color="red" variant="light" title="Could not show the details" role="alert">
          {error}
        </Alert>
      ) : null}
    </CanAccess>
  );
}
