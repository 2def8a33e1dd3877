/**
 * Links that end a login when followed: a path segment, file name or query value that is
 * `logout`, `log-out`, `sign_out`, `signoff`… (`/account/logout`, `/auth/logoff.php`,
 * `?action=logout`); `/signoff-sheets` or `/blog/logouts-explained` are pages like any other.
 */
const SIGN_OUT = /(?:^|[/_.=&?-])(?:log|sign)[-_]?(?:out|off)(?:$|[/.?#&=])/i;

/** Whether following `url` with a session's cookies would sign the session out. */
export function isSignOutUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return SIGN_OUT.test(decodeURIComponent(parsed.pathname)) || SIGN_OUT.test(decodeURIComponent(parsed.search));
  } catch {
    return false;
  }
}
