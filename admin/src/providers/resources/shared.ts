import type { BaseRecord, CrudFilter, DataProvider } from "@refinedev/core";

/** What one resource answers; a resource leaves out what it cannot do. */
export type ResourceHandlers = {
  getList?: (params: Parameters<DataProvider["getList"]>[0]) => Promise<{ data: BaseRecord[]; total: number }>;
  getOne?: (params: Parameters<DataProvider["getOne"]>[0]) => Promise<{ data: BaseRecord }>;
  update?: (params: Parameters<DataProvider["update"]>[0]) => Promise<{ data: BaseRecord }>;
  create?: (params: Parameters<DataProvider["create"]>[0]) => Promise<{ data: BaseRecord }>;
  deleteOne?: (params: Parameters<DataProvider["deleteOne"]>[0]) => Promise<{ data: BaseRecord }>;
};

/** A filter's value when it is a non-empty string. */
export function filterValue(filters: CrudFilter[] | undefined, field: string) {
  const found = filters?.find((filter) => "field" in filter && filter.field === field);
  const value = found && "value" in found ? found.value : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}
