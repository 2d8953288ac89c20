import { OWNER_LIST_PAGE_SIZE, SUBSCRIBER_STATUSES } from "@shop/owner-lists";
import { callFunction } from "../../api";
import { filterChoice, filterValue, pageParams, type ResourceHandlers } from "./shared";

/** The subscribers, searched and paged on the server, by a status the URL may carry wrong (the other owner's lists are data.ts's pagedList). */

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
