import { describe, expect, it } from "vitest";
import { isNoticeText } from "../../../src/engines/local/html/main-content/notices.js";
import { markdown } from "./helpers.js";

const PROSE = Array.from({ length: 6 }, (_, i) =>
  `<p>Paragraph ${i} of the story, with enough words, commas, and detail to read as prose, which is what a reader came for.</p>`).join("\n");

const main = (html: string): string => markdown(html, { onlyMainContent: true });

describe("onlyMainContent drops the site's notices inside the article", () => {
  it("drops a print-only citation box and its copyright notice", () => {
    const out = main(`<article><h1>Headline</h1>${PROSE}
      <div class="d-none d-print-block"><div><strong>Citation</strong>: Headline (2019, November 18) retrieved 20 November 2019 from https://example.com/news/headline.html</div></div>
      <div class="box">This document is subject to copyright. Apart from any fair dealing for the purpose of private study or research, no part may be reproduced without the written permission.</div>
    </article>`);
    expect(out).toContain("Paragraph 5 of the story");
    for (const notice of ["Citation", "retrieved 20 November", "subject to copyright"]) expect(out).not.toContain(notice);
  });

  it("drops a citation line by its text alone, in other languages too", () => {
    const out = main(`<article><h1>Headline</h1>${PROSE}
      <p>Zitiervorschlag: Schlagzeile, in: Beispiel-Zeitung, 18. November 2019.</p>
      <p>Cómo citar este artículo: Titular, Diario de Ejemplo, 2019.</p></article>`);
    expect(out).toContain("Paragraph 5 of the story");
    expect(out).not.toContain("Zitiervorschlag");
    expect(out).not.toContain("Cómo citar");
  });

  it("keeps a paragraph that talks about citing, retrieving and copyright", () => {
    const said = [
      "The court found that copying the photograph breached copyright, a ruling the agency said it would appeal next month.",
      "Investigators retrieved the files from a server in Ohio and cited them in the indictment against the company.",
      "Please enable JavaScript, the support page tells readers, but many of them browse with it turned off on purpose.",
    ];
    const out = main(`<article><h1>Headline</h1>${PROSE}${said.map((p) => `<p>${p}</p>`).join("")}</article>`);
    for (const line of said) expect(out).toContain(line);
  });

  it("drops the site's copyright and address block inside the article container", () => {
    const out = main(`<div class="content">${PROSE}
      <div class="region-copyright"><p>The Paper 100 Main Street, Suite 9, Springfield 20006 | 202-555-0100 tel</p><p>The contents of this site are ©2019 The Paper Publishing Corp., a subsidiary of News Inc.</p></div></div>`);
    expect(out).toContain("Paragraph 5 of the story");
    expect(out).not.toContain("Main Street");
    expect(out).not.toContain("contents of this site");
  });

  it("keeps an editorial disclaimer, which belongs to the story", () => {
    const out = main(`<article>${PROSE}<p class="disclaimer">The views and opinions expressed in the article do not necessarily reflect those of the paper.</p></article>`);
    expect(out).toContain("The views and opinions expressed");
  });

  it("drops a 'requires JavaScript' stand-in, and keeps a sentence about JavaScript", () => {
    const kept = "This library requires JavaScript knowledge to extend, the maintainers wrote, but plugins are simple to write.";
    const out = main(`<article><h1>Headline</h1>${PROSE}<p>This slideshow requires JavaScript.</p><p>Bitte aktivieren Sie JavaScript, um die Kommentare zu sehen.</p><p>${kept}</p></article>`);
    expect(out).not.toContain("slideshow requires");
    expect(out).not.toContain("aktivieren Sie JavaScript");
    expect(out).toContain(kept);
  });

  it("keeps content hidden on small screens only, and a long paragraph naming a copyright year", () => {
    const long = `Paragraph about rights: ${"the archive, which holds © 1998 prints and letters, ".repeat(10)}was sold.`;
    const out = main(`<article>${PROSE}<div class="d-none d-md-block"><p>Shown on wide screens, this paragraph is part of the story and stays.</p></div><p>${long}</p></article>`);
    expect(out).toContain("Shown on wide screens");
    expect(out).toContain("Paragraph about rights");
  });

  it("recognises notices by their text shape", () => {
    expect(isNoticeText("© 2024 Example Media. All rights reserved.")).toBe(true);
    expect(isNoticeText("Alle Rechte vorbehalten. © 2019 Beispiel GmbH")).toBe(true);
    expect(isNoticeText("Retrieved on 3 May 2021 from https://example.org/page")).toBe(true);
    expect(isNoticeText("Please enable JavaScript to view the comments.")).toBe(true);
    expect(isNoticeText("The band's 2019 album was released under a Creative Commons licence, not copyright.")).toBe(false);
    expect(isNoticeText("Rescuers retrieved the bodies from the river on Tuesday.")).toBe(false);
  });
});
