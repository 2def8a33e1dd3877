/** See kept-pages-size.mjs. */
export function sizeWithAndWithout(path: string, withoutPath: string): { withPages: number; withoutPages: number; keptBlobs: number };
