import { Anchor, AppShell, Button, Group, NavLink, Text, Title } from "@mantine/core";
import { CanAccess, useGetIdentity, useLogout, useMenu } from "@refinedev/core";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** The signed-in frame: 'Order Management', a way back to the shop, navigation and sign-out. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { data: identity } = useGetIdentity<{ email: string }>();
  const { mutate: logout, isPending } = useLogout();
  // A link per resource declared in App.tsx that has a list page. selectedKey is
  // the current page's resource, so an order's page lights up 'Orders' as before.
  const { menuItems, selectedKey } = useMenu();
  return (
    <AppShell header={{ height: 64 }} padding="lg">
      <AppShell.Header bg="chocolate.9" c="white" px="lg">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="xl" wrap="nowrap">
            <Title order={1} size="h3" c="white">
              Order Management
            </Title>
            <Group gap={4} visibleFrom="sm" component="nav" aria-label="Admin">
              {menuItems.map((item) =>
                item.route ? (
                  // Only the pages this operator's role may open (as Refine's own sider does).
                  <CanAccess key={item.key} resource={item.name} action="list">
                    <NavLink
                      component={Link}
                      to={item.route}
                      label={item.label}
                      active={item.key === selectedKey}
                      variant="filled"
                      w="auto"
                      c="white"
                    />
                  </CanAccess>
                ) : null,
              )}
            </Group>
          </Group>
          <Group gap="md" wrap="nowrap">
            <Anchor href="/" c="yellow.2" fw={700}>
              Back to Homepage
            </Anchor>
            {identity ? (
              <Text size="sm" c="chocolate.1" visibleFrom="md">
                {identity.email}
              </Text>
            ) : null}
            <Button variant="white" color="chocolate" size="xs" onClick={() => logout()} loading={isPending}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main bg="#fff8ef">{children}</AppShell.Main>
    </AppShell>
  );
}
