import { Group, Pagination } from "@mantine/core";

/** A list's page links, shown only when there is more than one page; each control named for screen readers. */
export function Pager({ pageCount, currentPage, onChange }: { pageCount: number; currentPage: number; onChange: (page: number) => void }) {
  if (pageCount <= 1) return null;
  return (
    <Group justify="center">
      <Pagination total={pageCount} value={currentPage} onChange={onChange} getControlProps={(control) => ({ "aria-label": `${control} page` })} />
    </Group>
  );
}
