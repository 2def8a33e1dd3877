/**
 * The headers every answer of the web UI carries, in one place. The Content-Security-Policy
 * allows the UI's own stylesheet and script and nothing else: no inline script or style, no
 * other origin (a scraped page's images and links are never loaded), no frames, no plugins, no
 * form posts elsewhere, and the UI may not be framed. The one frame it shows is a stored page's
 * HTML preview, from the UI itself, under PREVIEW_POLICY.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'none'",
  "font-src 'none'",
  "object-src 'none'",
  "media-src 'none'",
  // Only the sandboxed HTML preview of a stored page (PREVIEW_POLICY below).
  "frame-src 'self'",
  "worker-src 'none'",
  "manifest-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export function securityHeaders(): Record<string, string> {
  return {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-store",
  };
}

/**
 * A stored page's HTML preview: a sandbox (an opaque origin without script, forms, popups or
 * top navigation, even when opened on its own), nothing loaded from anywhere (its images and
 * stylesheets stay out; inline styles are allowed so the page keeps its layout), and framed only
 * by the UI.
 */
export const PREVIEW_POLICY = ["sandbox", "default-src 'none'", "style-src 'unsafe-inline'", "img-src data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'self'"].join("; ");

export function previewHeaders(): Record<string, string> {
  return { ...securityHeaders(), "content-security-policy": PREVIEW_POLICY, "x-frame-options": "SAMEORIGIN", "cross-origin-opener-policy": "same-origin" };
}
