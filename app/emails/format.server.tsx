import { Text } from "@react-email/components";
import { render } from "@react-email/render";
import { createContext, useContext, type CSSProperties, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { paragraph } from "~/emails/theme";

/**
 * Both parts of an email come from one component tree, rendered twice: once as
 * HTML (react-email), once as plain text. Each piece knows its two forms
 * through the EmailFormat context: a paragraph is a <p> in the HTML and its
 * words followed by a blank line in the text; the order's figures are a table
 * in one and aligned lines in the other. Where the two parts word a block
 * differently (the text greets on a line of its own, the HTML has a title),
 * <Block> holds both wordings side by side.
 *
 * Converting the HTML to text (react-email's plainText) would have been less
 * code, but it words a table, a button and a line break its own way, and
 * the plain-text emails customers already get had to stay as they were,
 * byte for byte (app/emails/emails.test.ts).
 *
 * The text is rendered by React too, so it is escaped as HTML text is; it is
 * decoded once at the end, and nothing in it can be an element: a tag
 * rendered in text form is a mistake, and throws.
 */

type EmailFormat = "html" | "text";

const EmailFormatContext = createContext<EmailFormat>("html");

export const useEmailFormat = () => useContext(EmailFormatContext);

/** What ends a block in the text part: the blank line between paragraphs. */
const BLOCK_END = "\n\n";

/**
 * A block in both parts worded differently: `children` in the HTML, `text`
 * (a paragraph, lines and all) in the plain text. Either may be left out for
 * a block one part does not have.
 */
export function Block({ text, children }: { text?: string; children?: ReactNode }) {
  if (useEmailFormat() === "html") return children ?? null;
  return text === undefined ? null : text + BLOCK_END;
}

/** Words that read the same in both parts: a <p> in the HTML, a paragraph of the text. */
export function Paragraph({ children, style }: { children: ReactNode; style?: CSSProperties }) {
  return useEmailFormat() === "html" ? (
    <Text style={{ ...paragraph, ...style }}>{children}</Text>
  ) : (
    <>
      {children}
      {BLOCK_END}
    </>
  );
}

/** A line break: <br> in the HTML, a newline in the text. */
export function LineBreak() {
  return useEmailFormat() === "html" ? <br /> : "\n";
}

/** Bold in the HTML, plain words in the text. */
export function Strong({ children }: { children: ReactNode }) {
  return useEmailFormat() === "html" ? <strong>{children}</strong> : children;
}

const REACT_TEXT_ESCAPES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'" };

/** The two parts of an email from its component. */
export async function renderEmail(email: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(<EmailFormatContext.Provider value="html">{email}</EmailFormatContext.Provider>);
  const markup = renderToStaticMarkup(<EmailFormatContext.Provider value="text">{email}</EmailFormatContext.Provider>);
  // React escapes every "<" of text, so one left is an element's.
  if (markup.includes("<")) throw new Error(`An email's plain-text part holds an element: ${markup.slice(markup.indexOf("<"), markup.indexOf("<") + 40)}`);
  const text = markup.replace(/&(amp|lt|gt|quot|#x27);/g, (escape) => REACT_TEXT_ESCAPES[escape] ?? escape);
  return { html, text: text.endsWith(BLOCK_END) ? text.slice(0, -BLOCK_END.length) : text };
}
