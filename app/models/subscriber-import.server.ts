import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { parseCsv } from "~/lib/csv";
import { canonicalMailbox } from "~/lib/email";
import { longDate } from "~/lib/dates";
import { recordAudit } from "~/models/audit.server";
import { at, inTransaction, sqlIn } from "~/utils/db.server";

/**
 * The owner's import of a list kept elsewhere (decision 101): only addresses
 * whose consent the file records are added, each with where and when it was
 * given; one who unsubscribed here is never signed up again by a file; nobody
 * imported is sent a welcome. Everything refused is reported with its line.
 */

export const IMPORT_LIMITS = { bytes: 5_000_000, rows: 50_000, noteLength: 200, reportedRefusals: 1_000 } as const;

export type ImportReport = {
  added: number;
  alreadySubscribed: number;
  refusedTotal: number;
  /** The first IMPORT_LIMITS.reportedRefusals of them. */
  refused: { line: number; email: string; reason: string }[];
};

const YES = new Set(["yes", "y", "true", "1", "x", "opted in", "opt-in", "subscribed"]);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const emailSchema = z.string().email().max(254);

/** A day or a moment the file gives ("2026-03-01", or ISO with a time), not in the future; null for anything else. */
function consentDate(value: string, now: Date): Date | null {
  if (!DAY.test(value) && !/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const date = new Date(DAY.test(value) ? `${value}T12:00:00Z` : value);
  return Number.isNaN(date.getTime()) || date > now ? null : date;
}

type Candidate = { line: number; email: string; mailbox: string; consentAt: Date; note: string | null };

/** The file's rows, each a candidate or a refusal. */
function readRows(text: string, now: Date): { ok: false; error: string } | { ok: true; candidates: Candidate[]; refused: ImportReport["refused"] } {
  const [header, ...rows] = parseCsv(text);
  if (!header) return { ok: false, error: "The file is empty." };
  const names = header.fields.map((name) =>
    name
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_"),
  );
  const column = (...wanted: string[]) => names.findIndex((name) => wanted.includes(name));
  const emailColumn = column("email", "email_address", "e_mail");
  const consentColumn = column("consent", "consented", "opted_in");
  const atColumn = column("consented_at", "consent_date", "subscribed_at", "signed_up");
  const noteColumn = column("note", "source", "where");
  if (emailColumn < 0 || consentColumn < 0) {
    return {
      ok: false,
      error: 'The first row must name the columns, with "email" and "consent" among them (and, if you have them, "consented_at" and "note").',
    };
  }
  if (rows.length > IMPORT_LIMITS.rows)
    return { ok: false, error: `At most ${IMPORT_LIMITS.rows.toLocaleString("en-US")} addresses at a time: split the file.` };
  const candidates: Candidate[] = [];
  const refused: ImportReport["refused"] = [];
  const seen = new Set<string>();
  for (const { line, fields } of rows) {
    const cell = (index: number) => (index >= 0 ? (fields[index] ?? "").trim() : "");
    const email = cell(emailColumn);
    const refuse = (reason: string) => refused.push({ line, email, reason });
    if (!emailSchema.safeParse(email).success) {
      refuse("Not an email address");
      continue;
    }
    const consent = cell(consentColumn);
    const consentOn = consentDate(consent, now);
    if (!YES.has(consent.toLowerCase()) && !consentOn) {
      refuse(consent ? `No consent: "${consent.slice(0, 40)}" is not yes or a date` : "No consent recorded");
      continue;
    }
    const given = cell(atColumn);
    const givenOn = given ? consentDate(given, now) : null;
    if (given && !givenOn) {
      refuse(`"${given.slice(0, 40)}" is not a date such as 2026-03-01`);
      continue;
    }
    const mailbox = canonicalMailbox(email);
    if (seen.has(mailbox)) {
      refuse("Already earlier in the file");
      continue;
    }
    seen.add(mailbox);
    candidates.push({ line, email, mailbox, consentAt: givenOn ?? consentOn ?? now, note: cell(noteColumn).slice(0, IMPORT_LIMITS.noteLength) || null });
  }
  return { ok: true, candidates, refused };
}

const BATCH = 1_000;

export async function importSubscribers(
  actorEmail: string,
  text: string,
  now = new Date(),
): Promise<{ ok: false; error: string } | { ok: true; report: ImportReport }> {
  const read = readRows(text, now);
  if (!read.ok) return read;
  const refused = [...read.refused];
  let added = 0;
  let alreadySubscribed = 0;
  for (let start = 0; start < read.candidates.length; start += BATCH) {
    const batch = read.candidates.slice(start, start + BATCH);
    const outcome = await inTransaction(async (tx) => {
      const sql = sqlIn(tx);
      const existing = await sql.db
        .selectFrom("Subscriber")
        .select(["mailbox", "unsubscribedAt"])
        .where(
          "mailbox",
          "in",
          batch.map((candidate) => candidate.mailbox),
        )
        .execute();
      const known = new Map(existing.map((row) => [row.mailbox, row.unsubscribedAt]));
      const fresh = batch.filter((candidate) => !known.has(candidate.mailbox));
      const inserted =
        fresh.length === 0
          ? []
          : await sql.db
              .insertInto("Subscriber")
              .values(
                fresh.map((candidate) => ({
                  id: randomUUID(),
                  email: candidate.email,
                  mailbox: candidate.mailbox,
                  unsubscribeToken: randomBytes(24).toString("base64url"),
                  source: "import",
                  consentAt: at(candidate.consentAt),
                  consentNote: candidate.note,
                  createdAt: at(now),
                })),
              )
              // Signed up on the form meanwhile: theirs is the form's consent.
              .onConflict((conflict) => conflict.column("mailbox").doNothing())
              .returning("mailbox")
              .execute();
      return { known, inserted: new Set(inserted.map((row) => row.mailbox)) };
    });
    for (const candidate of batch) {
      const left = outcome.known.get(candidate.mailbox);
      if (outcome.inserted.has(candidate.mailbox)) added++;
      else if (left)
        refused.push({ line: candidate.line, email: candidate.email, reason: `Unsubscribed on ${longDate(left)}: an import does not sign them up again` });
      else alreadySubscribed++;
    }
  }
  refused.sort((first, second) => first.line - second.line);
  await inTransaction((tx) =>
    recordAudit(tx, {
      actorEmail,
      action: "subscribers.import",
      subjectType: "subscribers",
      subjectId: "import",
      before: null,
      after: { added, alreadySubscribed, refused: refused.length },
    }),
  );
  return { ok: true, report: { added, alreadySubscribed, refusedTotal: refused.length, refused: refused.slice(0, IMPORT_LIMITS.reportedRefusals) } };
}
