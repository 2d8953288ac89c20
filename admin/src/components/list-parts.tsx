import { Card, Table, Text, VisuallyHidden, type TableThProps } from "@mantine/core";
import type { ReactNode } from "react";
import { LoadingRows, QueryError } from "./loading";

/** A column's heading: its words, or its words with the heading cell's own props; `hidden` words are for screen readers only. */
type Column = string | (TableThProps & { label: string; hidden?: boolean });

/** A list's table in its card, its columns' headings over its rows (`children`), scrolling sideways on a screen narrower than `minWidth`. */
export function TableCard({
  minWidth,
  columns,
  striped = false,
  highlightOnHover = false,
  children,
}: {
  minWidth: number;
  columns: readonly Column[];
  striped?: boolean;
  highlightOnHover?: boolean;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="lg" p={0}>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table striped={striped} highlightOnHover={highlightOnHover} verticalSpacing="sm" horizontalSpacing="md">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => {
                const { label, hidden = false, ...props } = typeof column === "string" ? { label: column } : column;
                return (
                  <Table.Th key={label} {...props}>
                    {hidden ? <VisuallyHidden>{label}</VisuallyHidden> : label}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
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
