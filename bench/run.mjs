// Runs every benchmark in bench/. Build first: the benchmarks measure the built CLI (dist/).
import { run as validate } from "./validate.mjs";

validate();
