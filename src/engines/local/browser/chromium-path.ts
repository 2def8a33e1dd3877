import { accessSync, constants } from "node:fs";
import { ScrapelineError } from "../../../core/index.js";

/** Where Chromium or Chrome usually lives, most likely first. */
const SYSTEM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/opt/google/chrome/chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

const HOW_TO_INSTALL =
  "install Chromium (Debian/Ubuntu: apt-get install chromium; Fedora: dnf install chromium; macOS: brew install --cask chromium) or point SCRAPELINE_CHROMIUM at a Chromium or Chrome executable";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser executable: SCRAPELINE_CHROMIUM when set, else the first system Chromium or Chrome
 * found. Throws an "unsupported" error saying how to install one when there is none.
 */
export function findChromium(env: Readonly<Record<string, string | undefined>> = process.env, candidates: readonly string[] = SYSTEM_PATHS): string {
  const chosen = env.SCRAPELINE_CHROMIUM?.trim();
  if (chosen) {
    if (executable(chosen)) return chosen;
    throw new ScrapelineError("unsupported", `SCRAPELINE_CHROMIUM is ${JSON.stringify(chosen)}, which is not an executable file; ${HOW_TO_INSTALL}`);
  }
  const found = candidates.find(executable);
  if (found) return found;
  throw new ScrapelineError("unsupported", `this scrape needs a browser and none was found (looked in ${candidates.join(", ")}); ${HOW_TO_INSTALL}`);
}
