import { Card, Table, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { LoadingRows, QueryError } from "./loading";

/** A list's table in its card, scrolling sideways on a screen narrower than `minWidth`. */
export function TableCard({
  minWidth,
  striped = false,
  highlightOnHover = false,
  children,
}: {
  minWidth: number;
  striped?: boolean;
  highlightOnHover?: boolean;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="lg" p={0}>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table striped={striped} highlightOnHover={highlightOnHover} verticalSpacing="sm" horizontalSpacing="md">
          {children}
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** The part of a list's fetch its states read (Refine's and TanStack Query's results). */
type ListQuery = { isLoading: boolean; isError: boolean; isSuccess: boolean; error: { message?: string } | null; refetch: () => unknown };

/**
 * What a list says besides its rows: "Loading orders…" while it loads, "Failed
 * to fetch orders" with Try again when the fetch failed, and `empty` when it
 * came back with no rows.
 */
export function ListStates({ query, what, count, empty }: { query: ListQuery; what: string; count: number; empty?: string }) {
  return (
    <>
      {query.isError ? <QueryError title={`Failed to fetch ${what}`} message={query.error?.message} onRetry={() => void query.refetch()} /> : null}
      {query.isLoading ? <LoadingRows label={`Loading ${what}…`} /> : null}
      {empty && query.isSuccess && count === 0 ? (
        <Text ta="center" c="dimmed" py="xl">
          {empty}
        </Text>
      ) : null}
    </>
  );
}
