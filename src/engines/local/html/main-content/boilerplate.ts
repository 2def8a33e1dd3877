import type { El } from "../dom.js";

// What a block's class, id or text says about it once the article is found: the words news and
// blog templates use (in several languages) for what sits around a story rather than in it.

/** Class and id words for blocks that are never the story: sharing, follow and subscribe prompts, related links, comments. */
const AROUND = /related|recommend|newsletter|subscri|social|share|sharing|comment|disqus|breadcrumb|trending|outbrain|taboola|teaser|promo|sponsor|most-?(read|popular|viewed)|read-?more|more-?(stories|news|articles|from)|also-?read|signup|sign-up|follow-?us|paywall|donat|cookie|consent|author-?(bio|info|box)|about-?author|tag-?list|post-?tags|article-?tags|topics|pagination|jump-?to|skip-?link|print-?button|toolbar|(^|[-_ ])(tags?|nav|navigation|menu|rating|ad|ads|advert|advertisement|sidebar|footer|widget)($|[-_ ])|weiterlesen|verwandt|articles-?lies|relacionad|correlat|leia-?mais|a-?lire|lire-?aussi/i;

/** Class and id words for the small print of a story: who wrote it, when, and whose photo it is. */
const SMALL_PRINT = /byline|dateline|author|timestamp|credit|copyright|(^|[-_ ])(date|time|meta|published|updated|posted|source|kicker|label|eyebrow|caption-?credit|image-?credit|photo-?credit)($|[-_ ])|datum|autor|fecha|data-?publica/i;

/** Block text that is a label of the page, not of the story (headings of link lists, prompts, gallery controls). */
const LABEL = /^(related( articles| stories| links| content| posts| news| coverage| video| videos| topics)?|(you )?(may|might) also (like|enjoy)|(don'?t|do not) miss|read (more|next|also)|also read|continue reading( below)?|more( news| stories| articles| videos?)?( (from|on|in|about) .*| like this)?|top (videos?|stories|news)|trending( now| stories)?|most (read|popular|viewed|shared)|popular( now| stories)?|recommended( for you| stories| reading)?|editor'?s picks?|advert(isement)?|anzeige|werbung|publicité|publicidad|sponsored( content| stories)?|promoted( stories| content)?|share( this( article| story| on \w+)?)?|tweet|skip to .*|join the conversation|comments?( \(\d+\))?|\d+ comments?|leave a (reply|comment)|post a comment|((image|photo) )?caption|close|image \d+ of \d+|\d+ of \d+|\d+ \/ \d+|view (gallery|comments)|tags?|topics|filed under|weiterlesen|mehr zum thema|lesen sie auch|leia (também|mais)|veja também|lire aussi|à lire aussi|lee también|te puede interesar)\s*[:.…!|>»]*$/i;

/** A photo or image credit: "Photo: …", "Image copyright …", "(Image: © …)", "… | Getty Images". */
const CREDIT = /^\(?\s*((photo|image|picture|photograph|foto|bild|illustration|video)s?\s*(copyright|credit|by|courtesy)\b|(photo|image|picture|photograph|foto|bild|credit|illustration|source|video)s?\s*[:©|/-]|©|copyright\b|\(c\) )|\b(getty images?|ap photo|reuters|afp|shutterstock|istock(photo)?|epa|associated press)\)?\.?$/i;

/** Dates, times and the words that announce them, in the languages the templates use. */
const DATE_WORDS = /\b(updated?|published|posted|modified|last|on|at|by|am|pm|a\.m|p\.m|est|edt|cst|cdt|pst|pdt|gmt|utc|bst|cet|cest|ist|aest|ago|mins?|minutes?|hours?|hrs?|days?|jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|mon(day)?|tue(s(day)?)?|wed(nesday)?|thu(rs(day)?)?|fri(day)?|sat(urday)?|sun(day)?|de|às|um|am|le|à|el|il|den|der|publicado|publié|veröffentlicht|aktualisiert|atualizado|actualizado|mis à jour|segunda|terça|quarta|quinta|sexta|sábado|domingo|feira|janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro|enero|febrero|marzo|mayo|junio|julio|septiembre|octubre|noviembre|diciembre|januar|februar|märz|juni|juli|oktober|dezember|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre)\b|\d+(st|nd|rd|th|am|pm|h)?|[^\p{L}\p{N}]+/giu;

/** Class and id words for what pops up over a link on hover: a person's card, a tooltip, a preview. */
const POPUP = /(^|[-_ ])(tooltip|popover|pop-?up|hover-?card|hover-?box|rollover|flyout|preview-?card)s?($|[-_ ])/i;

export function isPopupName(value: string): boolean {
  return POPUP.test(value);
}

export function isAroundName(value: string): boolean {
  return AROUND.test(value);
}

export function isSmallPrintName(value: string): boolean {
  return SMALL_PRINT.test(value);
}

/** A short label such as "Related articles", "Advertisement" or "Image 1 of 8". */
export function isLabel(text: string): boolean {
  return text.length <= 60 && LABEL.test(text);
}

/** A photo credit line. */
export function isCredit(text: string): boolean {
  return text.length <= 120 && CREDIT.test(text);
}

/** What makes digits a date or a time: a word of a date, a clock time, day, month and year ("18/11/2019", "2019-11-18"), or a year alone. */
const DATE_SHAPE = /\p{L}|\d:\d\d|\d[./-]\d{1,2}[./-]\d|^(19|20)\d\d$/u;

/**
 * A dateline: a date or time with at most the words that introduce it ("Updated 5:27 am CST,
 * Wednesday, …"). Digits alone are not one ("42", "$19.99", "-20%" are figures).
 */
export function isDateLine(text: string): boolean {
  if (text.length > 80 || !/\d/.test(text)) return false;
  const rest = text.replace(DATE_WORDS, "");
  return rest.trim() === "" && DATE_SHAPE.test(text);
}

/** A byline: "By Jane Doe", "By Jane Doe and John Roe - 11/18/19 11:04 PM EST", "Von …", "Por …". */
export function isBylineText(text: string): boolean {
  if (text.length > 100) return false;
  const match = /^([Bb]y|BY|[Vv]on|[Pp]or|[Pp]ar|[Dd]i|[Dd]oor|[Aa]v|[Aa]f)\s+(\p{Lu}[\p{L}.'’-]*\s*){1,4}((and|und|y|e|et|&|,)\s+(\p{Lu}[\p{L}.'’-]*\s*){1,4})*(.*)$/u.exec(text);
  if (match === null) return false;
  const rest = match[6]!.replace(/^[\s,|–—-]+/, "");
  return rest === "" || isDateLine(rest) || /^(\p{Lu}[\p{L}.'’-]*\s*){1,5}$/u.test(rest);
}

export function classAndId(el: El): string {
  const cls = el.attr("class");
  const id = el.attr("id");
  if (cls === undefined) return id ?? "";
  return id === undefined ? cls : `${cls} ${id}`;
}
