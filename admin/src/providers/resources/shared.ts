import type { BaseRecord, CrudFilter, DataProvider, Pagination } from "@refinedev/core";

/** What one resource answers; a resource leaves out what it cannot do. */
export type ResourceHandlers = {
  getList?: (params: Parameters<DataProvider["getList"]>[0]) => Promise<{ data: BaseRecord[]; total: number }>;
  getOne?: (params: Parameters<DataProvider["getOne"]>[0]) => Promise<{ data: BaseRecord }>;
  update?: (params: Parameters<DataProvider["update"]>[0]) => Promise<{ data: BaseRecord }>;
  create?: (params: Parameters<DataProvider["create"]>[0]) => Promise<{ data: BaseRecord }>;
  deleteOne?: (params: Parameters<DataProvider["deleteOne"]>[0]) => Promise<{ data: BaseRecord }>;
};

/** The page Refine asks for, as the paged functions take it. */
export function pageParams(pagination: Pagination | undefined, defaultSize: number) {
  return { page: pagination?.currentPage ?? 1, pageSize: pagination?.pageSize ?? defaultSize };
}

/** A filter's value when it is a non-empty string. */
export function filterValue(filters: CrudFilter[] | undefined, field: string) {
  const found = filters?.find((filter) => "field" in filter && filter.field === field);
  const value = found && "value" in found ? found.value : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A filter's value when it is one of `choices` (a status, a sort), as the function's schema takes it; undefined for anything else. */
export function filterChoice<Choice extends string>(filters: CrudFilter[] | undefined, field: string, choices: readonly Choice[]): Choice | undefined {
  const value = filterValue(filters, field);
  return choices.find((choice) => choice === value);
}
