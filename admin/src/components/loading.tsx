import { Center, Loader } from "@mantine/core";

export function Loading() {
  return (
    <Center h="60vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
