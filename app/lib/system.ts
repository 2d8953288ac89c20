/** The owner's System page as the admin receives it (browser-safe; decision 054). Dates are ISO strings. */

export const EMAIL_STATUSES = ["pending", "sent", "dead"] as const;
export type EmailListStatus = (typeof EMAIL_STATUSES)[number];

/** Rows per page of the System page's emails. */
export const EMAILS_PAGE_SIZE = 20;

export type SystemJson = {
  release: { version: string; commit: string | null };
  database: {
    ready: boolean;
    reason: string | null;
    migrations: { database: number | null; release: number | null } | null;
    version: string | null;
  };
  emails: {
    pending: number;
    oldestPendingAt: string | null;
    dead: number;
    sentLastDay: number;
  };
  lastWebhook: { type: string; receivedAt: string; processed: boolean } | null;
  /** Paid sessions whose amount was not their order's total, newest first (decision 080): those orders are not marked paid. */
  paymentMismatches: { orderId: string; paidCents: number; totalCents: number; noticedAt: string }[];
  jobs: {
    name: string;
    lastStartedAt: string | null;
    lastFinishedAt: string | null;
    lastResult: string | null;
    lastError: string | null;
    failures: number;
  }[];
};

export type EmailRow = {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: EmailListStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** The copy Resend queued of this email, once it has been resent. */
  resentAs: string | null;
};
