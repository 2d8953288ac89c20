/** The owner's lists as the admin receives them (browser-safe). Dates are ISO strings. */

export type SubscriberRow = { id: string; email: string; subscribedAt: string; unsubscribedAt: string | null };

export type InquiryRow = { id: string; name: string; email: string; business: string | null; message: string; receivedAt: string };

export const SUBSCRIBER_STATUSES = ["all", "subscribed", "unsubscribed"] as const;
export type SubscriberStatusFilter = (typeof SUBSCRIBER_STATUSES)[number];
