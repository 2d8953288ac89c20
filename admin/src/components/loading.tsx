import { Center, Loader, VisuallyHidden } from "@mantine/core";

/**
 * What shows while a page's code or data arrives: a live region that screen
 * readers announce as "Loading…", busy until the page replaces it.
 */
export function Loading() {
  return (
    <Center h="60vh" role="status" aria-busy="true">
      <Loader aria-hidden="true" />
      <VisuallyHidden>Loading…</VisuallyHidden>
    </Center>
  );
}
