import { Text } from "@mantine/core";
import { orderDate } from "../../components/status";

/** Errors and dead emails: a deep red, 4.5:1 and more on white and on a striped row (Mantine's red.6–8 give less). */
export const ERROR_RED = "#a51d1d";

/** Badges keep their full width inside a crowded row. */
export const unsqueezed = { flexShrink: 0, minWidth: "max-content" } as const;

const relativeFormat = new Intl.RelativeTimeFormat("en-US", {
  numeric: "auto",
});
const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "3 minutes ago", "in 2 hours", "now": how long ago `iso` was, in its largest whole unit. */
export function relativeTime(iso: string, now = Date.now()) {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** A time as how long ago it was, with the date and time it was (Los Angeles time, as everywhere in the admin). */
export function When({ iso }: { iso: string }) {
  return (
    <Text span size="sm">
      {relativeTime(iso)}{" "}
      <Text span size="xs" c="dimmed" className="nowrap">
        ({orderDate(iso)})
      </Text>
    </Text>
  );
}
