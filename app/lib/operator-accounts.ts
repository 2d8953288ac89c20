import type { OperatorRole } from "./operators";

/** An operator account as the owner's Operators page receives it (browser-safe). */
export type OperatorRow = { id: string; email: string; role: OperatorRole; createdAt: string; lastSeenAt: string | null };
