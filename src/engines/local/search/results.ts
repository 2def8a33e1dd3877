import type { ImageResult, NewsResult, SearchCategory, SearchSourceType, WebResult } from "../../../core/index.js";
import { categoryOf } from "./query.js";
import type { SearxngResult } from "./searxng-client.js";

type Item = Omit<WebResult, "position"> | Omit<NewsResult, "position"> | Omit<ImageResult, "position">;

/** A SearXNG result in the service's shape for its source; undefined when it lacks what that shape needs. */
export function toResult(type: SearchSourceType, raw: SearxngResult, categories: readonly SearchCategory[]): Item | undefined {
  const url = absolute(raw.url);
  if (!url) return undefined;
  const title = text(raw.title);
  if (type === "web") {
    const category = categories.length > 0 ? categoryOf(url, categories) : undefined;
    return { url, title, description: text(raw.content), ...(category ? { category } : {}) };
  }
  if (type === "news") {
    const date = typeof raw.publishedDate === "string" && raw.publishedDate !== "" ? raw.publishedDate : undefined;
    const imageUrl = absolute(raw.thumbnail) ?? absolute(raw.img_src);
    return { title, url, snippet: text(raw.content), ...(date ? { date } : {}), ...(imageUrl ? { imageUrl } : {}) };
  }
  const imageUrl = absolute(raw.img_src) ?? absolute(raw.thumbnail_src);
  if (!imageUrl) return undefined;
  const size = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/i.exec(raw.resolution ?? "");
  return { title, imageUrl, ...(size ? { imageWidth: Number(size[1]), imageHeight: Number(size[2]) } : {}), url };
}

/** The key two results of a source are the same by: the image for images, the page otherwise. */
export function keyOf(type: SearchSourceType, item: Item): string {
  return type === "images" ? (item as ImageResult).imageUrl : item.url;
}

/** An http(s) URL; protocol-relative ones (//host/path, as engines give images) become https. */
function absolute(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  const candidate = value.startsWith("//") ? `https:${value}` : value;
  try {
    const url = new URL(candidate);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
}
