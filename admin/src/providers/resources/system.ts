import { EMAIL_STATUSES, EMAILS_PAGE_SIZE } from "@shop/system";
import { callFunction } from "../../api";
import { filterChoice, pageParams, type ResourceHandlers } from "./shared";

/** The System page's emails (the outbox): get-emails, filtered by status and paged on the server; newest first. */
export const emails: ResourceHandlers = {
  async getList({ pagination, filters }) {
    const body = {
      ...pageParams(pagination, EMAILS_PAGE_SIZE),
      status: filterChoice(filters, "status", EMAIL_STATUSES) ?? null,
    };
    const { emails, total } = await callFunction("get-emails", body);
    return { data: emails, total };
  },
};
