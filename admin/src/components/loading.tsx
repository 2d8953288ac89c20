import { Center, Loader, VisuallyHidden } from "@mantine/core";

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
