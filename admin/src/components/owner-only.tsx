import { Alert } from "@mantine/core";
import { CanAccess } from "@refinedev/core";
import { OWNER_ONLY_MESSAGE } from "@shop/operators";
import type { ReactNode } from "react";

/**
 * A page only the owner may use: staff who open its address see why instead
 * (the server would refuse its calls with 403 anyway).
 */
export function OwnerOnly({ resource, action = "list", children }: { resource: string; action?: string; children: ReactNode }) {
  return (
    <CanAccess
      resource={resource}
      action={action}
      fallback={
        <Alert color="yellow" title="Owner only" role="alert">
          {OWNER_ONLY_MESSAGE}
        </Alert>
      }
    >
      {children}
    </CanAccess>
  );
}
