import { Anchor, AppShell, Burger, Button, Divider, Drawer, Group, NavLink, Stack, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { CanAccess, useGetIdentity, useMenu } from "@refinedev/core";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { authProvider } from "../providers/auth";

/**
 * The signed-in frame: 'Order Management', a way back to the shop, navigation
 * and sign-out. On a wide screen all of it sits in the header; below Mantine's
 * "md" breakpoint the header keeps the title and a menu button, and the rest
 * moves into a drawer, so nothing is clipped on a phone.
 */
/**
 * Sign-out ends the session, then loads the sign-in page afresh. A full load,
 * not Refine's in-app redirect: the orders, customers and figures this tab
 * holds in memory go with it, and no guard that sees the session end first
 * can send the operator to `/login?to=…` (back into the page just left).
 */
function useSignOut() {
  const [isPending, setPending] = useState(false);
  const signOut = () => {
    setPending(true);
    void authProvider.logout({}).finally(() => window.location.replace("/admin/login"));
  };
  return { signOut, isPending };
}

export function AdminLayout({ children }: { children: ReactNode }) {
  const { data: identity } = useGetIdentity<{ email: string }>();
  const { signOut, isPending } = useSignOut();
  const [menuOpen, menu] = useDisclosure(false);

  return (
    // From "xl" (1408 px) every link fits beside the title; between "md" and "xl" (a laptop's 1024 to 1366) they take a second row of the header.
    <AppShell header={{ height: { base: 64, md: 108, xl: 64 } }} padding={{ base: "md", sm: "lg" }}>
      <AppShell.Header bg="chocolate.9" c="white" px={{ base: "md", sm: "lg" }}>
        <Group h={64} justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap" style={{ minWidth: 0 }}>
            <Title order={1} size="h3" c="white" style={{ whiteSpace: "nowrap" }}>
              Order Management
            </Title>
            <HeaderNav visibleFrom="xl" />
          </Group>
          <Group gap="md" wrap="nowrap" visibleFrom="md" style={{ flexShrink: 0 }}>
            <Anchor href="/" c="yellow.2" fw={700} style={{ whiteSpace: "nowrap" }}>
              Back to Homepage
            </Anchor>
            {/* Who is signed in, on hover: written out beside the nine links it pushed "System" out of sight at 1440 px. */}
            <Button
              variant="white"
              color="chocolate"
              size="xs"
              onClick={signOut}
              loading={isPending}
              title={identity ? `Signed in as ${identity.email}` : undefined}
            >
              Sign out
            </Button>
          </Group>
          <Burger opened={menuOpen} onClick={menu.toggle} hiddenFrom="md" color="white" aria-label="Menu" aria-expanded={menuOpen} aria-controls="admin-menu" />
        </Group>
        <HeaderNav visibleFrom="md" hiddenFrom="xl" h={40} />
      </AppShell.Header>

      <Drawer opened={menuOpen} onClose={menu.close} position="right" size="xs" title="Menu" hiddenFrom="md" id="admin-menu">
        <Stack gap="md">
          <nav aria-label="Admin">
            <NavLinks onNavigate={menu.close} />
          </nav>
          <Divider />
          {identity ? (
            <Text size="sm" c="dimmed">
              Signed in as {identity.email}
            </Text>
          ) : null}
          <Anchor href="/" fw={700}>
            Back to Homepage
          </Anchor>
          <Button variant="light" onClick={signOut} loading={isPending}>
            Sign out
          </Button>
        </Stack>
      </Drawer>

      <AppShell.Main bg="#fff8ef">{children}</AppShell.Main>
    </AppShell>
  );
}

/** The header's links: beside the title on a wide screen, in a row of their own on a laptop (one of them shown at a time). */
function HeaderNav(props: { visibleFrom: "md" | "xl"; hiddenFrom?: "xl"; h?: number }) {
  return (
    <Group gap={2} wrap="nowrap" component="nav" aria-label="Admin" style={{ overflowX: "auto", minWidth: 0 }} {...props}>
      <NavLinks inHeader />
    </Group>
  );
}

/**
 * A link per resource declared in resources.ts that has a list page, for what the
 * operator's role may open (the access control provider). selectedKey is the
 * current page's resource, so an order's page lights up 'Orders'.
 */
function NavLinks({ inHeader = false, onNavigate }: { inHeader?: boolean; onNavigate?: () => void }) {
  const { menuItems, selectedKey } = useMenu();
  return (
    <>
      {menuItems
        .filter((item) => item.route)
        .map((item) => (
          <CanAccess key={item.key} resource={item.name} action="list">
            <NavLink
              component={Link}
              to={item.route!}
              label={item.label}
              active={item.key === selectedKey}
              variant="filled"
              onClick={onNavigate}
              // In the header, twelve links for an owner: narrow padding keeps every one in view from 1408 px (xl), where they sit beside the title.
              {...(inHeader && { w: "auto", c: "white", px: 5, style: { whiteSpace: "nowrap", flexShrink: 0 } })}
            />
          </CanAccess>
        ))}
    </>
  );
}
