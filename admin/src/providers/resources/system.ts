import { EMAILS_PAGE_SIZE, type EmailRow } from "@shop/system";
import { callFunction } from "../../api";
import { filterValue, pageParams, type ResourceHandlers } from "./shared";

/** The System page's emails (the outbox): get-emails, filtered by status and paged on the server; newest first. */
export const emails: ResourceHandlers = {
  async getList({ pagination, filters }) {
    const body = {
      ...pageParams(pagination, EMAILS_PAGE_SIZE),
      status: filterValue(filters, "status") ?? null,
    };
    const { emails, total } = await callFunction<{
      emails: EmailRow[];
      total: number;
    }>("get-emails", body);
    return { data: emails, total };
  },
};
