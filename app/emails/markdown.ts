/**
 * The little Markdown a campaign's body is written in, read into plain data
 * that the email renders (React escapes every word): paragraphs parted by a
 * blank line, "- item" lists, **bold** and [links](https://…). Nothing else
 * is markup: HTML, images and headings stay the words they are written as,
 * and a link only becomes one to an http(s) or mailto address.
 */

export type Inline = { type: "text"; text: string } | { type: "bold"; children: Inline[] } | { type: "link"; href: string; children: Inline[] };

export type MarkdownBlock = { type: "paragraph"; children: Inline[] } | { type: "list"; items: Inline[][] };

const LIST_ITEM = /^\s*-\s+(\S.*)$/;
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** The address a link may go to, or null: an absolute http(s) or mailto URL, as written. */
export function safeHref(href: string): string | null {
  if (!URL.canParse(href)) return null;
  return LINK_PROTOCOLS.has(new URL(href).protocol) ? href : null;
}

type InlineRules = { bold: boolean; links: boolean };

// Bold: the shortest run between two "**" that starts and ends with a non-space.
// A link: [words](address), the address without spaces or brackets.
const INLINE = /\*\*(\S(?:[\s\S]*?\S)?)\*\*|\[([^\]\n]+)\]\(([^()\s]+)\)/g;

/** A line's words and marks: bold is not nested in bold, nor a link in a link. */
export function parseInline(source: string, rules: InlineRules = { bold: true, links: true }): Inline[] {
  const out: Inline[] = [];
  const pushText = (text: string) => {
    if (!text) return;
    const last = out.at(-1);
    if (last?.type === "text") last.text += text;
    else out.push({ type: "text", text });
  };
  let from = 0;
  for (const match of source.matchAll(INLINE)) {
    const [whole, bold, label, href] = match;
    const at = match.index;
    if (bold !== undefined && rules.bold) {
      pushText(source.slice(from, at));
      out.push({ type: "bold", children: parseInline(bold, { ...rules, bold: false }) });
      from = at + whole.length;
    } else if (label !== undefined && href !== undefined && rules.links && safeHref(href)) {
      pushText(source.slice(from, at));
      out.push({ type: "link", href, children: parseInline(label, { ...rules, links: false }) });
      from = at + whole.length;
    }
  }
  pushText(source.slice(from));
  return out;
}

/** A body's blocks: a run of "- " lines is a list, any other run of lines up to a blank one a paragraph (its line breaks kept). */
export function parseMarkdown(source: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n")) });
    if (list.length > 0) blocks.push({ type: "list", items: list.map((item) => parseInline(item)) });
    paragraph = [];
    list = [];
  };
  for (const line of source.replace(/\r\n?/g, "\n").split("\n")) {
    const item = LIST_ITEM.exec(line);
    if (line.trim() === "") {
      flush();
    } else if (item) {
      if (paragraph.length > 0) flush();
      list.push(item[1]!.trim());
    } else {
      if (list.length > 0) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}
