import { describe, expect, it } from "vitest";
import { markdown } from "./helpers.js";

describe("markdown: blocks", () => {
  it("writes ATX headings and separates paragraphs with one blank line", () => {
    expect(markdown("<h1>Title</h1><p>One</p><p>Two</p><h3>Sub <em>x</em></h3>")).toBe("# Title\n\nOne\n\nTwo\n\n### Sub *x*\n");
  });

  it("collapses whitespace like a browser and ends with exactly one newline", () => {
    expect(markdown("<div>\n  <p>  Hello\n\t  <b> big </b>   world  </p>\n</div>\n\n")).toBe("Hello **big** world\n");
  });

  it("leaves no blank lines for empty elements and no trailing spaces", () => {
    const out = markdown("<p>a</p><div><p> </p><span></span></div><p>b <b> </b></p>");
    expect(out).toBe("a\n\nb\n");
    expect(out.split("\n").some((line) => line.endsWith(" "))).toBe(false);
  });

  it("renders nested lists with indentation matching the marker", () => {
    const html = "<ul><li>one<ul><li>sub a</li><li>sub b<ol><li>deep</li><li>deeper</li></ol></li></ul></li><li>two</li></ul>";
    expect(markdown(html)).toBe("- one\n  - sub a\n  - sub b\n    1. deep\n    2. deeper\n- two\n");
  });

  it("numbers ordered lists from their start attribute and indents continuation lines", () => {
    expect(markdown('<ol start="9"><li>nine</li><li><p>ten</p><p>more</p></li></ol>')).toBe("9. nine\n10. ten\n\n    more\n");
  });

  it("puts a list nested directly in a list under the previous item", () => {
    expect(markdown("<ul><li>a</li><ul><li>b</li></ul></ul>")).toBe("- a\n  - b\n");
  });

  it("fences code blocks with the language from language-x or lang-x", () => {
    expect(markdown('<pre><code class="language-ts">const a = 1;\n\nif (a) {\n  go();\n}\n</code></pre>')).toBe("```ts\nconst a = 1;\n\nif (a) {\n  go();\n}\n```\n");
    expect(markdown('<pre class="lang-py">print(1)</pre>')).toBe("```py\nprint(1)\n```\n");
    expect(markdown("<pre>a ``` b</pre>")).toBe("````\na ``` b\n````\n");
  });

  it("writes inline code with a fence longer than any backtick run inside", () => {
    expect(markdown("<p>use <code>x`y</code> and <code>a  b</code></p>")).toBe("use ``x`y`` and `a b`\n");
  });

  it("quotes blockquotes, blank lines included", () => {
    expect(markdown("<blockquote><p>a</p><p>b</p></blockquote><p>after</p>")).toBe("> a\n>\n> b\n\nafter\n");
  });

  it("writes horizontal rules and definition lists as text", () => {
    expect(markdown("<p>a</p><hr><dl><dt>Term</dt><dd>Meaning</dd></dl>")).toBe("a\n\n---\n\nTerm\n\nMeaning\n");
  });

  it("turns <br> into hard breaks, two of them into a paragraph break", () => {
    expect(markdown("<p>one<br>two<br><br>three<br></p>")).toBe("one\\\ntwo\n\nthree\n");
  });
});

describe("markdown: tables", () => {
  it("writes a GFM table with a header row and escaped pipes", () => {
    const html = "<table><thead><tr><th>Name</th><th>a|b</th></tr></thead><tbody><tr><td>x</td><td><b>y</b></td></tr></tbody></table>";
    expect(markdown(html)).toBe("| Name | a\\|b |\n| --- | --- |\n| x | **y** |\n");
  });

  it("uses the first row as the header when there is no thead, and pads colspans", () => {
    const html = "<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td colspan=2>wide</td><td>z</td></tr><tr><td>short</td></tr></table>";
    expect(markdown(html)).toBe("| a | b | c |\n| --- | --- | --- |\n| wide |  | z |\n| short |  |  |\n");
  });

  it("keeps cells on one line", () => {
    expect(markdown("<table><tr><th>h</th><th>i</th></tr><tr><td><p>a</p><p>b</p></td><td>c<br>d</td></tr></table>")).toBe("| h | i |\n| --- | --- |\n| a b | c d |\n");
  });

  it("starts each cell afresh: escapes at its start, and nothing of the cell before it carries over", () => {
    const html = '<table><tr><th><a href="/x">x</a> </th><th>- y</th><th>+ z</th></tr><tr><td><em>a</em> <a href="/b">b</a></td><td># b</td><td>1. c</td></tr></table>';
    expect(markdown(html)).toBe("| [x](https://example.com/x) | \\- y | \\+ z |\n| --- | --- | --- |\n| *a* [b](https://example.com/b) | \\# b | 1\\. c |\n");
  });

  it("renders layout tables (one column, or tables inside tables) as blocks", () => {
    expect(markdown("<table><tr><td><p>First</p></td></tr><tr><td>Second</td></tr></table>")).toBe("First\n\nSecond\n");
    expect(markdown("<table><tr><td><table><tr><td>x</td><td>y</td></tr></table></td><td>z</td></tr></table>")).toContain("z");
  });
});

describe("markdown: inline", () => {
  it("writes links with titles, absolute against the page", () => {
    expect(markdown('<p><a href="/a b" title="The &quot;A&quot;">go</a> <a href="https://x.org/(1)">x</a></p>')).toBe(
      '[go](https://example.com/a%20b "The \\"A\\"") [x](https://x.org/\\(1\\))\n',
    );
  });

  it("drops empty links; javascript: links keep their text; an <a> inside an <a> closes the first", () => {
    expect(markdown('<p><a href="/x"> </a>a <a href="javascript:void(0)">b</a> <a href="/y">c <a href="/z">d</a></a></p>')).toBe(
      "a b [c](https://example.com/y) [d](https://example.com/z)\n",
    );
  });

  it("removes Skip to Content links", () => {
    expect(markdown('<a href="#main">Skip to Content</a><p>Body</p>')).toBe("Body\n");
  });

  it("escapes newlines inside link text with a backslash", () => {
    expect(markdown('<a href="/card"><h3>Card title</h3><p>Card text</p></a>')).toBe("[Card title\\\nCard text](https://example.com/card)\n");
  });

  it("writes images with alt text and the largest srcset candidate", () => {
    expect(markdown('<img src="s.png" srcset="m.png 600w, l.png 1200w, xs.png 300w" alt="A [pic]">')).toBe("![A \\[pic\\]](https://example.com/blog/l.png)\n");
    expect(markdown('<img src="one.png" srcset="two.png 2x" alt="">')).toBe("![](https://example.com/blog/two.png)\n");
  });

  it("prefers the real URL of lazy-loaded images over a placeholder", () => {
    expect(markdown('<img src="data:image/gif;base64,R0lGOD" data-src="/real.jpg" alt="r"><img data-original="/o.jpg">')).toBe(
      "![r](https://example.com/real.jpg)![](https://example.com/o.jpg)\n",
    );
  });

  it("nests images in links", () => {
    expect(markdown('<a href="/big"><img src="/small.png" alt="x"></a>')).toBe("[![x](https://example.com/small.png)](https://example.com/big)\n");
  });

  it("closes emphasis before a block break and reopens it after", () => {
    expect(markdown("<b>one<p>two</p></b>")).toBe("**one**\n\n**two**\n");
  });

  it("writes strikethrough", () => {
    expect(markdown("<p><del>old</del> new</p>")).toBe("~~old~~ new\n");
  });
});

describe("markdown: escaping", () => {
  it("escapes characters that would become markup, and only those", () => {
    expect(markdown("<p>*stars* _under_ snake_case a * b [x] `t` &lt;div&gt; 5 &gt; 3 AT&amp;T &amp;amp;</p>")).toBe(
      "\\*stars\\* \\_under\\_ snake_case a * b \\[x\\] \\`t\\` \\<div> 5 > 3 AT&T \\&amp;\n",
    );
  });

  it("escapes block markers at the start of a line", () => {
    expect(markdown("<p># not a heading</p><p>- not a list</p><p>1986. A year</p><p>&gt; not a quote</p><p>---</p>")).toBe(
      "\\# not a heading\n\n\\- not a list\n\n1986\\. A year\n\n\\> not a quote\n\n\\---\n",
    );
  });

  it("decodes entities in text", () => {
    expect(markdown("<p>caf&eacute; &copy; 2024&nbsp;x &#x41;</p>")).toBe("café © 2024\u00a0x A\n");
  });
});
