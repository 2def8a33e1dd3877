import { describe, expect, it } from "vitest";
import { isSignOutUrl } from "../../src/core/index.js";

describe("links that sign a session out", () => {
  it.each(["https://a.test/logout", "https://a.test/account/log-out/", "https://a.test/users/sign_out", "https://a.test/SignOut", "https://a.test/auth/logoff.php", "https://a.test/index.php?action=logout", "https://a.test/x?do=sign-off&next=/"])("%s is one", (url) => {
    expect(isSignOutUrl(url)).toBe(true);
  });

  it.each(["https://a.test/blog/logouts-are-hard-to-get-right", "https://a.test/login", "https://a.test/catalog/outdoor", "https://a.test/signoff-sheets", "https://a.test/?q=blog", "not a url"])("%s is not", (url) => {
    expect(isSignOutUrl(url)).toBe(false);
  });
});
