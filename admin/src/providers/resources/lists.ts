import { OWNER_LIST_PAGE_SIZE, type InquiryRow, type SubscriberRow } from "@shop/owner-lists";
import { callFunction } from "../../api";
import { filterValue, pageParams, type ResourceHandlers } from "./shared";

/** The owner's lists: get-subscribers and get-inquiries, searched and paged on the server. */

export const subscribers: ResourceHandlers = {
  async getList({ pagination, filters }) {
    const body = { ...pageParams(pagination, OWNER_LIST_PAGE_SIZE), q: filterValue(filters, "q"), status: filterValue(filters, "status") ?? "all" };
    const { subscribers, total } = await callFunction<{ subscribers: SubscriberRow[]; total: number }>("get-subscribers", body);
    return { data: subscribers, total };
  },
};

export const inquiries: ResourceHandlers = {
  async getList({ pagination, filters }) {
    const body = { ...pageParams(pagination, OWNER_LIST_PAGE_SIZE), q: filterValue(filters, "q") };
    const { inquiries, total } = await callFunction<{ inquiries: InquiryRow[]; total: number }>("get-inquiries", body);
    return { data: inquiries, total };
  },
};
