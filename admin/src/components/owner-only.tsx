import { Alert, Anchor, Stack } from "@mantine/core";
import { useCan, useKeys, useOnError, type HttpError } from "@refinedev/core";
import { OWNER_ONLY_MESSAGE } from "@shop/operators";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, type ComponentType, type ReactNode } from "react";
import { Link } from "react-router";
import { Loading, QueryError } from "./loading";

/**
 * A page only the owner may use: staff who open its address are told so
 * (the server would refuse its calls with a 403 anyway). While the role is
 * being checked the page says so; when the check itself fails (the shop could
 * not be reached) it says that, with Try again, rather than "owners only".
 */
export function OwnerOnly({ resource, action = "list", children }: { resource: string; action?: string; children: ReactNode }) {
  const { data, isLoading, error } = useCan({ resource, action });
  const { mutate: handleError } = useOnError();
  const queryClient = useQueryClient();
  const { keys } = useKeys();

  // A check refused with 401 means the session ended: the auth provider sends the operator to sign in.
  useEffect(() => {
    if (error) handleError(error);
  }, [error, handleError]);

  if (isLoading) return <Loading label="Checking your access" />;
  if (error) {
    // Every access check asks again (this page's, and the nav's links, which failed with it), and so does the header's identity.
    const retry = () => {
      void queryClient.invalidateQueries({ queryKey: keys().access().get() });
      void queryClient.invalidateQueries({ queryKey: keys().auth().action("identity").get() });
    };
    return <QueryError title="Could not check your access" message={(error as Partial<HttpError>).message} onRetry={retry} />;
  }
  if (!data?.can) {
    return (
      <Stack>
        <Alert color="chocolate" title="Owners only" role="alert">
          {OWNER_ONLY_MESSAGE}
        </Alert>
        <Anchor component={Link} to="/">
          Back to orders
        </Anchor>
      </Stack>
    );
  }
  return <>{children}</>;
}

/**
 * A page that is `View` behind OwnerOnly, for the routes:
 * `export default ownerOnlyPage("inquiries", InquiryList)`.
 */
export function ownerOnlyPage(resource: string, View: ComponentType, action = "list") {
  function OwnerOnlyPage() {
    return (
      <OwnerOnly resource={resource} action={action}>
        <View />
      </OwnerOnly>
    );
  }
  OwnerOnlyPage.displayName = `OwnerOnly(${View.displayName ?? View.name})`;
  return OwnerOnlyPage;
}
