import type { CSSProperties } from "react";

/**
 * The emails' look, as inline styles (mail clients drop <style> sheets):
 * the storefront's chocolate, cream and peanut-butter yellow.
 */
export const colors = {
  /** The header bar, headings and buttons. */
  chocolate: "#3f2417",
  /** Links. */
  cocoa: "#5b3421",
  ink: "#2a1a12",
  muted: "#6b5143",
  /** The page behind the card, and boxes within it. */
  cream: "#fff8ef",
  /** The footer. */
  sand: "#fbeedd",
  rule: "#eddcc8",
  yellow: "#f6d36b",
  white: "#ffffff",
} as const;

export const fontFamily = "Nunito, 'Segoe UI', Arial, sans-serif";

export const paragraph: CSSProperties = { fontSize: "16px", lineHeight: "24px", margin: "0 0 16px", color: colors.ink };

export const strongParagraph: CSSProperties = { ...paragraph, fontWeight: 700 };

export const subheading: CSSProperties = { fontSize: "18px", lineHeight: "24px", color: colors.chocolate, margin: "24px 0 8px" };

/** A soft box around what stands apart: the tracking details, a visitor's message. */
export const box: CSSProperties = { ...paragraph, background: colors.cream, borderRadius: "10px", padding: "14px", margin: "16px 0" };

export const link: CSSProperties = { color: colors.cocoa, textDecoration: "underline" };

export const button: CSSProperties = {
  background: colors.chocolate,
  color: colors.cream,
  fontSize: "16px",
  fontWeight: 700,
  textDecoration: "none",
  padding: "12px 22px",
  borderRadius: "999px",
};
