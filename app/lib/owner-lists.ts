/** The owner's lists as the admin receives them (browser-safe). Dates are ISO strings. */

export type SubscriberRow = {
  id: string;
  email: string;
  subscribedAt: string;
  unsubscribedAt: string | null;
  /** Where and when they gave consent (decision 101): "form" or "import", the moment, and what an imported list said. */
  source: string;
  consentAt: string;
  consentNote: string | null;
};

export type InquiryRow = { id: string; name: string; email: string; business: string | null; message: string; receivedAt: string };

/** Rows per page of the owner's lists, unless the admin asks for another size. */
export const OWNER_LIST_PAGE_SIZE = 25;

export const SUBSCRIBER_STATUSES = ["all", "subscribed", "unsubscribed"] as const;
export type SubscriberStatusFilter = (typeof SUBSCRIBER_STATUSES)[number];
