import { Alert, Anchor, Stack } from "@mantine/core";
import { CanAccess } from "@refinedev/core";
import { OWNER_ONLY_MESSAGE } from "@shop/operators";
import type { ReactNode } from "react";
import { Link } from "react-router";

/**
 * A page only the owner may use: staff who open its address are told so
 * (the server would refuse its calls with a 403 anyway).
 */
export function OwnerOnly({ resource, action = "list", children }: { resource: string; action?: string; children: ReactNode }) {
  return (
    <CanAccess
      resource={resource}
      action={action}
      fallback={
        <Stack>
          <Alert color="chocolate" title="Owners only" role="alert">
            {OWNER_ONLY_MESSAGE}
          </Alert>
          <Anchor component={Link} to="/">
            Back to orders
          </Anchor>
        </Stack>
      }
    >
      {children}
    </CanAccess>
  );
}
