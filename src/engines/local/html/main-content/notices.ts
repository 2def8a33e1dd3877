import type { El } from "../dom.js";

// The site's notices that a template prints inside the story's container: how to cite the page,
// its copyright and legal line, a "requires JavaScript" stand-in for a widget, and what is only
// printed on paper. Judged by the shape of the text (in several languages) or by the framework
// words for print-only and legal blocks, never by one site's names.

/** A notice is at most this long; a longer block is prose, whatever it mentions. */
export const NOTICE_MAX = 400;

/** "Citation: … retrieved 20 November 2019 from https://…", "Cite this article", "Zitiervorschlag: …". */
const CITATION = /^(citation|cite this( article| page| story| post)?|how to cite( this( article| page))?|(to|please) cite this( article| page)?|zitiervorschlag|zitierweise|zitieren|citer cet article|pour citer (cet article|ce document)|c[óo]mo citar( este art[íi]culo)?|como citar( este artigo)?|per citare( questo articolo)?|citare questo articolo)\s*:|\b(retrieved|accessed)( on)? .{0,60}\bfrom:? *(https?:\/\/|www\.)/i;

/** The copyright words a legal line uses, in the languages the templates use. */
const COPYRIGHT = /©|\(c\)|&copy;|\bcopyright\b|urheberrecht|droits? d'auteur|derechos de autor|direitos autorais|diritti d'autore/i;
/** What turns a mention of copyright into the site's notice: a year right after it, "all rights reserved", a ban on copying. */
const NOTICE_TERMS = /(©|\(c\)|&copy;|copyright)\s*(©|\(c\))?\s*(19|20)\d\d\b|all rights reserved|alle rechte vorbehalten|tous droits réservés|todos los derechos reservados|todos os direitos reservados|tutti i diritti riservati|subject to copyright|(may|must|can) not be (reproduced|republished|redistributed|rewritten|copied)|without (the )?(prior |express )?written permission|ohne (vorherige )?(schriftliche )?genehmigung|sans autorisation (écrite|préalable)|sin (la )?autorización|sem autorização/i;

/**
 * "This slideshow requires JavaScript.", "Please enable JavaScript to view the comments", "Bitte
 * aktivieren Sie JavaScript, um …": the notice ends there or goes on with what it is needed for.
 */
const NEEDS_SCRIPT = /^((this|the) ([\p{L}-]+ ){0,3}(requires?|needs?) javascript|(please )?(enable|turn on|activate|allow) javascript|you (need|must|have) to (enable|turn on|activate|allow) javascript|to (view|see|watch|use|play|display|read) .{0,60}(enable|turn on|activate|allow|requires?|needs?) javascript|javascript (is )?(required|disabled|must be enabled|is not enabled|is off)|(bitte )?(aktivieren sie|aktiviere) javascript|javascript (ist )?(deaktiviert|erforderlich)|(veuillez )?activer (le )?javascript|javascript (est )?(requis|désactivé)|(por favor,? )?(habilite|active|activa|ative|ativa) (el |o )?javascript|javascript (est[áa] )?(desactivado|desativado|deshabilitado))(\s*[.!]*\s*$|,?\s+(to|in order to|for|um|pour|afin de|para|per)\s)/iu;

/** Class and id words for blocks printed on paper only, never shown on screen. */
const PRINT_ONLY = /(^|[-_ ])(print-?only|only-?print|visible-?print(-block|-inline)?|show-?for-?print|printonly)($|[-_ ])/i;
/** Bootstrap's print-only pair: hidden on screen (`d-none`), shown on paper (`d-print-block`). */
const SCREEN_HIDDEN = /(^| )d-none( |$)/;
const SHOWN_IN_PRINT = /(^| )d-print-[a-z-]+( |$)/;
const SHOWN_AT_BREAKPOINT = /(^| )d-(sm|md|lg|xl|xxl)-(block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|table-cell|table-row|contents)( |$)/;

/** Class and id words for the site's legal block: copyright, imprint (an editorial disclaimer is part of the story). */
const LEGAL = /copyright|(^|[-_ ])(legal|imprint|impressum|mentions-?legales|aviso-?legal)($|[-_ ])/i;

/** Words every notice holds one of: a cheap test before a block's lines are read. */
const CUE = /©|&copy;|&#169;|\(c\)|copyright|urheber|droits|derechos|direitos|diritti|cit|zitier|retrieved|accessed|javascript/i;

/** Whether a block's raw text may hold a notice (false: it holds none). */
export function mayBeNotice(rawText: string): boolean {
  return CUE.test(rawText);
}

/** Text of a block that is a notice of the site rather than part of the story. */
export function isNoticeText(text: string): boolean {
  if (text.length > NOTICE_MAX) return false;
  if (CITATION.test(text)) return true;
  if (COPYRIGHT.test(text) && NOTICE_TERMS.test(text)) return true;
  return text.length <= 160 && NEEDS_SCRIPT.test(text);
}

/** A block that only paper shows (`print-only`, Bootstrap's `d-none d-print-block`). */
export function isPrintOnly(el: El): boolean {
  const cls = el.attr("class") ?? "";
  if (cls === "") return false;
  if (PRINT_ONLY.test(cls)) return true;
  return SCREEN_HIDDEN.test(cls) && SHOWN_IN_PRINT.test(cls) && !SHOWN_AT_BREAKPOINT.test(cls);
}

/** A short block named as the site's legal line (copyright, imprint). */
export function isLegalBlock(names: string, textLength: number): boolean {
  return textLength <= NOTICE_MAX && LEGAL.test(names);
}
