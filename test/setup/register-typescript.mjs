// Passed to vitest's test processes with --import (vitest.config.ts); worker threads they start inherit it.
import { register } from "node:module";

register("./typescript-hooks.mjs", import.meta.url);
