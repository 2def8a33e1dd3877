import { collapseSpace, textContent, type El } from "../dom.js";
import { linesOf } from "./lines.js";

// Short data a shop or a listing prints inside its main content: a price, a share, a quantity with
// its unit, a stock state, a rating, an article number. A short block holding one is content, not
// small print: the figures are what the page is read for, however few words surround them.

/** Currency signs and codes, written before or after the amount. */
const CURRENCY = String.raw`[$€£¥₹₩₽₺₪฿₫₴₦]|円|元|zł|Kč|kr\.?|Fr\.|CHF|USD|EUR|GBP|JPY|INR|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|CNY|RMB|BRL|MXN|R\$|Rs\.?`;
/** An amount: digits grouped by `,` `.` `'` or a (no-break) space, with cents or a Swiss `.–` / Dutch `,-`. */
const AMOUNT = String.raw`\d[\d.,'’\u00a0\u202f ]*(?:[.,](?:\d+|[-–—]))?`;
const PRICE = new RegExp(String.raw`(?:^|[^\p{L}])(?:${CURRENCY})\s?${AMOUNT}|\d(?:[.,'’\u00a0\u202f ]?\d)*(?:[.,](?:\d+|[-–—]))?\s?(?:${CURRENCY})(?![\p{L}])`, "u");
/** A share ("-20%", "64 %"), a quantity with its unit ("1.7 l", "250g", "2 × 2,0 Ah", "71 dB", "12 m²"). */
const MEASURE = /\d\s?(%|(?:kg|g|mg|lb|lbs|oz|l|ml|cl|dl|litres?|liters?|cm|mm|m|km|in|ft|m²|m2|cm²|gb|tb|mb|w|kw|v|ah|mah|nm|db|hz|ghz|mhz|pcs|pieces|stück|pack)\b|″|")/iu;
/** Stock states and counts, in the languages the shops use. */
const STOCK = /\b(in stock|out of stock|sold out|low stock|back ?order(ed)?|pre-?order|currently unavailable|unavailable|available|only \d+ left|\d+ (left|in stock|available)|auf lager|an lager|ausverkauft|lieferbar|verfügbar|nicht verfügbar|en stock|rupture de stock|épuisé|disponible|agotado|op voorraad|uitverkocht|dostępny|niedostępny|esaurito|disponibile)\b|在庫あり|在庫なし|売り切れ|品切れ|残りわずか|有货|缺货|售罄/iu;
/** A rating ("4.5 out of 5", "4,6 von 5", "8,7/10" but not a slide's "1 / 5", "★4.6", "218 reviews") or an article number ("SKU", "Art.-Nr.", "Réf."). */
const LABELLED = /\d([.,]\d+)?(\/(5|10)\b|\s?out of (5|10)\b|von (5|10)\b|sur (5|10)\b|de (5|10)\b)|★\s?\d|\b\d[\d,.]*\s(reviews?|ratings?|bewertungen|avis|reseñas|recensioni)\b|\b(sku|isbn|ean|gtin|mpn|art\.?-?nr|artikelnummer|produktnummer|item (code|no)|product code|model (no|number)|part (no|number)|réf|ref\.)\b/iu;

/** Whether a short text holds a price, a share, a quantity with its unit, a stock state, a rating or an article number. */
export function hasDataToken(text: string): boolean {
  if (!/\d/.test(text)) return STOCK.test(text) || LABELLED.test(text);
  return PRICE.test(text) || MEASURE.test(text) || STOCK.test(text) || LABELLED.test(text);
}

/** Microdata names of a product's, an offer's or an event's data (not an article's dates, which are small print). */
const DATA_PROPS = /^(price|lowPrice|highPrice|priceCurrency|availability|sku|gtin\d*|mpn|ratingValue|reviewCount|ratingCount|offers|aggregateRating|startDate|endDate|validFrom|validThrough|priceValidUntil)$/;

/** Whether an `itemprop` value names a product's data (`price`, `availability`, `ratingValue`, …). */
function isDataProperty(itemprop: string | undefined): boolean {
  if (itemprop === undefined) return false;
  for (const word of itemprop.split(/\s+/)) if (DATA_PROPS.test(word)) return true;
  return false;
}

/** Whether an element or one inside it is marked up as a product's data. */
export function hasDataMarkup(el: El): boolean {
  if (el.attrs.length > 0 && isDataProperty(el.attr("itemprop"))) return true;
  for (const child of el.children) if (typeof child !== "string" && hasDataMarkup(child)) return true;
  return false;
}

/** A block holding a product's data: a data token in its text, or an element marked up as one (`itemprop="price"`). */
export function holdsData(el: El): boolean {
  return hasDataToken(collapseSpace(textContent(el))) || hasDataMarkup(el);
}

/** A line this short holding a price is the price of what the page shows, not a figure in a sentence. */
const PRICE_LINE = 40;

/** Whether a block shows a price on a line of its own ("£38.00", "Now £36.00", "1.234,56 €*") or marks one up. */
export function showsPrice(el: El): boolean {
  if (hasDataMarkup(el)) return true;
  if (!hasDigit(el)) return false;
  for (const line of linesOf(el)) if (line.length <= PRICE_LINE && PRICE.test(line)) return true;
  return false;
}

function hasDigit(el: El): boolean {
  for (const child of el.children) {
    if (typeof child === "string" ? /\d/.test(child) : hasDigit(child)) return true;
  }
  return false;
}
