import { OWNER_LIST_PAGE_SIZE, type InquiryRow, type SubscriberRow } from "@shop/owner-lists";
import { callFunction } from "../../api";
import { filterValue, type ResourceHandlers } from "./shared";

/** The owner's lists: get-subscribers and get-inquiries, searched and paged on the server. */

export const subscribers: ResourceHandlers = {
  async getList({ pagination, filters }) {
    const { subscribers, total } = await callFunction<{ subscribers: SubscriberRow[]; total: number }>("get-subscribers", {
      page: pagination?.currentPage ?? 1,
      pageSize: pagination?.pageSize ?? OWNER_LIST_PAGE_SIZE,
      q: filterValue(filters, "q"),
      status: filterValue(filters, "status") ?? "all",
    });
    return { data: subscribers, total };
  },
};

export const inquiries: ResourceHandlers = {
  async getList({ pagination, filters }) {
    const { inquiries, total } = await callFunction<{ inquiries: InquiryRow[]; total: number }>("get-inquiries", {
      page: pagination?.currentPage ?? 1,
      pageSize: pagination?.pageSize ?? OWNER_LIST_PAGE_SIZE,
      q: filterValue(filters, "q"),
    });
    return { data: inquiries, total };
  },
};
