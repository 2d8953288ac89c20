import { z } from "zod";
import { OWNER_LIST_PAGE_SIZE } from "~/lib/owner-lists";
import { exportCustomer, forgetCustomer } from "~/models/customer-data.server";
import {
  inquiriesCsv,
  inquiriesExportSchema,
  inquiriesQuerySchema,
  listInquiries,
  listSubscribers,
  subscribersCsv,
  subscribersExportSchema,
  subscribersQuerySchema,
} from "~/models/owner-lists.server";
import { unsubscribeMailbox } from "~/models/newsletter.server";
import { apiError } from "~/utils/api.server";
import { csvResponse } from "~/utils/csv-response.server";
import { defineFunction } from "./define.server";

const customerEmailSchema = z
  .object({ email: z.string({ required_error: "is required" }).trim().email("is not an email address").max(254, "is too long") })
  .strict();

const EXAMPLE_CUSTOMER = { email: "jamie@example.com" };

/** The owner's customers (decision 062: a customer's data, to know or erase) and lists (decision 022: subscribers, partnership inquiries). */
export const customerFunctions = {
  /**
   * { email } → everything the shop holds about that mailbox, in any spelling:
   * { orders, subscriptions, inquiries, emails } (a customer's right to know;
   * decision 062). The owner's; each request recorded. Never cached.
   */
  "export-customer": defineFunction({
    access: "customers.data",
    body: customerEmailSchema,
    example: EXAMPLE_CUSTOMER,
    run: ({ body: { email }, admin }) => exportCustomer(email, admin.email),
  }),

  /**
   * { email } → { changed: { orders, subscriptions, inquiries, emails, geocoderEntries } }:
   * the mailbox's personal data erased (a customer's right to delete; decision
   * 062), amounts and dates kept for the books. The owner's; recorded. Refused
   * (409) while one of its orders is still to be paid or delivered.
   */
  "forget-customer": defineFunction({
    access: "customers.data",
    body: customerEmailSchema,
    example: EXAMPLE_CUSTOMER,
    async run({ body: { email }, admin }) {
      const result = await forgetCustomer(email, admin.email);
      if (!result.ok) {
        return apiError(
          409,
          `This customer still has orders to pay or deliver (${result.openOrders.join(", ")}): forget them once those are delivered or refunded.`,
        );
      }
      return { changed: result.changed };
    },
  }),

  /**
   * { email } → { message }: the owner takes an address off the list, as its
   * holder asked by email (the List-Unsubscribe mailto; decision 101), in any
   * spelling of the mailbox; 404 for one never on it.
   */
  "unsubscribe-subscriber": defineFunction({
    access: "campaigns.manage",
    body: customerEmailSchema,
    example: EXAMPLE_CUSTOMER,
    async run({ body: { email } }) {
      const outcome = await unsubscribeMailbox(email);
      if (outcome === "unknown") return apiError(404, `${email} is not on the list.`);
      return { message: outcome === "left" ? `${email} is off the list: no more newsletters go to it.` : `${email} had already left the list.` };
    },
  }),

  /** A page of newsletter subscribers, unsubscribed ones marked. */
  "get-subscribers": defineFunction({
    access: "lists.view",
    body: subscribersQuerySchema,
    example: { page: 1, pageSize: OWNER_LIST_PAGE_SIZE, q: "example.com", status: "subscribed" },
    run: ({ body }) => listSubscribers(body),
  }),

  /** A page of partnership inquiries. */
  "get-inquiries": defineFunction({
    access: "lists.view",
    body: inquiriesQuerySchema,
    example: { page: 1, pageSize: OWNER_LIST_PAGE_SIZE, q: "cafe" },
    run: ({ body }) => listInquiries(body),
  }),

  /** The subscribers matching the list's filters, as a streamed CSV file. */
  "export-subscribers": defineFunction({
    access: "lists.view",
    body: subscribersExportSchema,
    example: { q: "example.com", status: "subscribed" },
    run: async ({ body }) => csvResponse("chillpb-subscribers", subscribersCsv(body)),
  }),

  /** The partnership inquiries matching the list's search, as a streamed CSV file. */
  "export-inquiries": defineFunction({
    access: "lists.view",
    body: inquiriesExportSchema,
    example: { q: "cafe" },
    run: async ({ body }) => csvResponse("chillpb-partnership-inquiries", inquiriesCsv(body)),
  }),
};
