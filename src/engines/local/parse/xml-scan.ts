import { Parser } from "htmlparser2";
import { ScrapelineError } from "../../../core/index.js";
import type { ParseLimits } from "./limits.js";

/** Parts of a zip-based document read as XML by a converter (and so scanned while they inflate). */
export function isXmlPart(name: string): boolean {
  return /\.(xml|rels|x?html?|opf|ncx|vml)$/i.test(name);
}

/**
 * Reads an XML part as it inflates, a chunk at a time, holding nothing of it: refuses it as soon
 * as its elements nest deeper than `maxDepth` or one text or attribute value (a cell, a run of
 * text) grows past `maxTextLength` characters, before a converter builds it whole in memory.
 */
export class XmlScan {
  private readonly decoder = new TextDecoder("utf-8");
  private readonly parser: Parser;
  private depth = 0;
  private text = 0;
  /** Why the part is refused, once it is. */
  failure: ScrapelineError | undefined;

  constructor(
    private readonly part: string,
    private readonly limits: Pick<ParseLimits, "maxDepth" | "maxTextLength">,
    private readonly label: string,
  ) {
    this.parser = new Parser(
      {
        onopentag: () => {
          this.text = 0;
          if (++this.depth > limits.maxDepth) this.fail(new ScrapelineError("bad-content", `${label}: ${part} nests elements more than ${limits.maxDepth} deep (the limit of a parsed file): refused`));
        },
        onclosetag: () => {
          this.text = 0;
          if (this.depth > 0) this.depth--;
        },
        onattribute: (_name, value) => this.count(value.length, true),
        ontext: (text) => this.count(text.length, false),
      },
      { xmlMode: true, decodeEntities: false, recognizeSelfClosing: true },
    );
  }

  /** Feeds the next inflated bytes of the part. */
  push(chunk: Uint8Array, final: boolean): void {
    if (this.failure) return;
    this.parser.write(this.decoder.decode(chunk, { stream: !final }));
    if (final && !this.failure) this.parser.end();
  }

  /** Text arrives in pieces (a chunk can end inside it): a run is counted until the next tag. */
  private count(length: number, attribute: boolean): void {
    if (attribute) this.text = length;
    else this.text += length;
    if (this.text > this.limits.maxTextLength) {
      this.fail(new ScrapelineError("too-large", `${this.label}: ${this.part} holds a ${attribute ? "value" : "text"} longer than ${this.limits.maxTextLength} characters (the limit of one string or cell): refused`));
    }
  }

  private fail(error: ScrapelineError): void {
    if (this.failure) return;
    this.failure = error;
    this.parser.pause();
  }
}
