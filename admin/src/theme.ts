import { createTheme, Modal, Notification, type CSSVariablesResolver, type MantineColorsTuple } from "@mantine/core";

/** The shop's chocolate, from cream (0) to the darkest brown (9). */
const chocolate: MantineColorsTuple = ["#fbf3ec", "#f1e3d5", "#e3c5a9", "#d6a67b", "#ca8b54", "#c37a3b", "#a8652c", "#7a4a2f", "#5b3421", "#3f2417"];

export const theme = createTheme({
  primaryColor: "chocolate",
  colors: { chocolate },
  primaryShade: 8,
  defaultRadius: "md",
  fontFamily: "Nunito, system-ui, -apple-system, Segoe UI, sans-serif",
  headings: { fontFamily: "Fredoka, Nunito, system-ui, sans-serif", fontWeight: "600" },
  components: {
    // Mantine's close button is an icon with no name: axe's button-name (found on the refund dialog's scan).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close" } } }),
    // The same for a toast's close button; and a toast's text under its title is gray.6 (3.3:1): the dimmed text below instead.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { "aria-label": "Close" } },
      styles: { description: { color: "var(--mantine-color-dimmed)" } },
    }),
  },
});

/**
 * Mantine's "dimmed" text is gray.6 (#868e96), 3.3:1 on white: below WCAG AA's
 * 4.5:1. The storefront's muted cocoa brown reads 6.9:1 on white, on the
 * table's striped rows and on the cream page. Its error red (red.6, #fa5252:
 * a field's message and an invalid field's text) is 3.3:1 too: red.9 reads 5.7:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-dimmed": "#6b5143", "--mantine-color-error": "#c92a2a" },
  dark: {},
});
