import fc from "fast-check";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MarkdownBody } from "~/emails/list-emails.server";
import { parseInline, parseMarkdown, safeHref } from "~/emails/markdown";

const text = (value: string) => ({ type: "text", text: value });

describe("a campaign's Markdown", () => {
  it("parts paragraphs at a blank line and keeps a paragraph's own line breaks", () => {
    expect(parseMarkdown("First line\nsame paragraph\n\n\nSecond one")).toEqual([
      { type: "paragraph", children: [text("First line\nsame paragraph")] },
      { type: "paragraph", children: [text("Second one")] },
    ]);
  });

  it("reads **bold**, and leaves a lone ** as it is", () => {
    expect(parseInline("Now **half price** for 2 ** days")).toEqual([text("Now "), { type: "bold", children: [text("half price")] }, text(" for 2 ** days")]);
    expect(parseInline("** not bold **")).toEqual([text("** not bold **")]);
  });

  it("links to http(s) and mailto addresses, with bold words in a link and a link in bold words", () => {
    expect(parseInline("See [our **new** bars](https://chillpb.example/shop) or [write](mailto:hello@chillpb.example)")).toEqual([
      text("See "),
      { type: "link", href: "https://chillpb.example/shop", children: [text("our "), { type: "bold", children: [text("new")] }, text(" bars")] },
      text(" or "),
      { type: "link", href: "mailto:hello@chillpb.example", children: [text("write")] },
    ]);
    expect(parseInline("**[Shop](http://chillpb.example)**")).toEqual([
      { type: "bold", children: [{ type: "link", href: "http://chillpb.example", children: [text("Shop")] }] },
    ]);
  });

  it.each(["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,hi", "/shop", "chillpb.example", "vbscript:x"])(
    "keeps a link to %s as the words written",
    (href) => {
      expect(safeHref(href)).toBeNull();
      expect(parseInline(`[click](${href})`)).toEqual([text(`[click](${href})`)]);
    },
  );

  it('reads a run of "- " lines as a list, next to paragraphs without a blank line', () => {
    expect(parseMarkdown("This week:\n- Mango **Tango**\n-  Cocoa Crunch\nSee you soon\n-5% is not an item")).toEqual([
      { type: "paragraph", children: [text("This week:")] },
      { type: "list", items: [[text("Mango "), { type: "bold", children: [text("Tango")] }], [text("Cocoa Crunch")]] },
      { type: "paragraph", children: [text("See you soon\n-5% is not an item")] },
    ]);
  });

  it("keeps HTML as words: escaped in the email's HTML, as written in its text", () => {
    expect(parseMarkdown('<script>alert("hi")</script> <b>bold?</b>')).toEqual([
      { type: "paragraph", children: [text('<script>alert("hi")</script> <b>bold?</b>')] },
    ]);
    const html = renderToStaticMarkup(<MarkdownBody source={'<script>alert("hi")</script> <img src=x onerror=alert(1)>'} />);
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;");
  });

  /** Every "<" the body's HTML may hold: the tags MarkdownBody writes, and nothing of the author's. */
  const BODY_TAG = /^<\/?(p|strong|a|ul|li)[\s>]/;

  it("never lets the author's words become markup, whatever they write (property)", () => {
    const pieces = fc.constantFrom("<", ">", "&", '"', "'", "*", "**", "[", "]", "(", ")", "- ", "\n", "\n\n", " ", "a", "b", "script", "img", "p", "/", ":");
    const links = fc.constantFrom(
      "[x](javascript:alert(1))",
      "[x](https://chillpb.example/?a=1&b=<2>)",
      "[x](mailto:a@b.example)",
      '[x](http://e.example/"onmouseover=alert(1))',
    );
    const body = fc.array(fc.oneof(pieces, links), { maxLength: 60 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(body, (source) => {
        const html = renderToStaticMarkup(<MarkdownBody source={source} />);
        for (const at of html.matchAll(/</g)) expect(html.slice(at.index, at.index + 10)).toMatch(BODY_TAG);
        for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(https?|mailto):/);
      }),
      { numRuns: 500 },
    );
  });
});
