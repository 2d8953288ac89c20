import { OWNER_LIST_PAGE_SIZE, SUBSCRIBER_STATUSES } from "@shop/owner-lists";
import { callFunction } from "../../api";
import { filterChoice, filterValue, pageParams, type ResourceHandlers } from "./shared";

/** The owner's lists: get-subscribers and get-inquiries, searched and paged on the server. */

export const subscribers: ResourceHandlers = {
  async getList({ pagination, filters }) {
    const body = {
      ...pageParams(pagination, OWNER_LIST_PAGE_SIZE),
      q: filterValue(filters, "q"),
      status: filterChoice(filters, "status", SUBSCRIBER_STATUSES) ?? "all",
    };
    const { subscribers, total } = await callFunction("get-subscribers", body);
    return { data: subscribers, total };
  },
};

export const inquiries: ResourceHandlers = {
  async getList({ pagination, filters }) {
    const body = { ...pageParams(pagination, OWNER_LIST_PAGE_SIZE), q: filterValue(filters, "q") };
    const { inquiries, total } = await callFunction("get-inquiries", body);
    return { data: inquiries, total };
  },
};
