import { Anchor, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";

export function NotFoundPage() {
  return (
    <Center h="80vh">
      <Stack align="center">
        <Title order={1}>Oops! Page not found</Title>
        <Text c="dimmed">There is no admin page here.</Text>
        <Anchor component={Link} to="/">
          Back to orders
        </Anchor>
      </Stack>
    </Center>
  );
}
