// Runs the benchmarks in bench/: `npm run bench` (all) or `npm run bench -- scrape store`.
// They measure the built code: run `npm run build` first. Nothing here asserts; it prints.
const BENCHES = {
  startup: () => import("./startup.mjs"),
  validate: () => import("./validate.mjs"),
  scrape: () => import("./scrape.mjs"),
  quality: () => import("./quality.mjs"),
  store: () => import("./store.mjs"),
  diff: () => import("./diff.mjs"),
  changes: () => import("./changes.mjs"),
  browser: () => import("./browser.mjs"),
  crawl: () => import("./crawl.mjs"),
  "crawl-peers": () => import("./crawl-peers.mjs"),
  "crawl-workers": () => import("./crawl-workers.mjs"),
  map: () => import("./map.mjs"),
  serve: () => import("./serve.mjs"),
  ui: () => import("./ui.mjs"),
  watch: () => import("./watch.mjs"),
  "watch-cluster": () => import("./watch-cluster.mjs"),
  parse: () => import("./parse.mjs"),
  "parse-bounds": () => import("./parse-bounds.mjs"),
  replay: () => import("./replay.mjs"),
  "from-run": () => import("./from-run.mjs"),
};

const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : Object.keys(BENCHES);
for (const name of names) {
  const load = BENCHES[name];
  if (!load) {
    console.error(`unknown benchmark "${name}"; choose from ${Object.keys(BENCHES).join(", ")}`);
    process.exit(2);
  }
  console.log(`\n== ${name} ==`);
  const module = await load();
  await module.run();
}
