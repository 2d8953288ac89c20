import { useMantineTheme } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";

/**
 * Whether the window is at least the theme's `breakpoint` wide, read at the
 * first render (the admin renders in the browser only). Lists render either
 * their phone cards or their table from this, never both hidden by CSS: two
 * copies of every row put two "Status of order …" controls in the
 * accessibility tree and twice the DOM on the page.
 */
export function useWide(breakpoint: "sm" | "md"): boolean {
  const theme = useMantineTheme();
  return (
    useMediaQuery(`(min-width: ${theme.breakpoints[breakpoint]})`, undefined, {
      getInitialValueInEffect: false,
    }) ?? false
  );
}
