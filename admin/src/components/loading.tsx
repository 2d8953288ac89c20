import { Alert, Button, Center, Group, Loader, Text, VisuallyHidden } from "@mantine/core";

/**
 * What shows while a page's code or data arrives: a status region whose text
 * ("Loading…") screen readers announce; the spinner itself is hidden from them.
 */
export function Loading({ label = "Loading" }: { label?: string }) {
  return (
    <Center h="60vh" role="status" aria-label={label}>
      <Loader aria-hidden="true" />
      <VisuallyHidden>{label}…</VisuallyHidden>
    </Center>
  );
}

/** A list's rows while they load. */
export function LoadingRows({ label }: { label: string }) {
  return (
    <Group justify="center" py="xl" role="status" aria-label={label}>
      <Loader size="sm" />
      <Text c="dimmed" size="sm" aria-hidden>
        {label}
      </Text>
    </Group>
  );
}

/** What a failed fetch says, with a way to ask again. */
export function QueryError({ title, message, onRetry }: { title: string; message?: string; onRetry?: () => void }) {
  return (
    <Alert color="red" title={title} role="alert">
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm">{message || "The shop could not be reached."}</Text>
        {onRetry ? (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
