# The scrapy + html2text peer of bench/crawl-peers.mjs: crawls the site at argv[1] (every
# same-host link, the site bounds the crawl) with argv[2] requests at a time, turns each page into
# markdown with html2text and writes {url, markdown} lines to the JSONL file argv[3]. Prints the
# crawl's wall time as JSON. Needs Debian's python3-scrapy and python3-html2text.
import json
import sys
import time

import html2text
import scrapy
from scrapy.crawler import CrawlerProcess

base, concurrency, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]


class Site(scrapy.Spider):
    name = "site"
    start_urls = [base + "/"]
    allowed_domains = ["127.0.0.1"]

    def parse(self, response):
        converter = html2text.HTML2Text()
        converter.body_width = 0
        yield {"url": response.url, "markdown": converter.handle(response.text)}
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse)


process = CrawlerProcess(settings={
    "CONCURRENT_REQUESTS": concurrency,
    "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
    "ROBOTSTXT_OBEY": False,
    "LOG_LEVEL": "ERROR",
    "TELNETCONSOLE_ENABLED": False,
    "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    "FEEDS": {out: {"format": "jsonlines", "encoding": "utf8"}},
})
start = time.monotonic()
process.crawl(Site)
process.start()
print(json.dumps({"seconds": time.monotonic() - start}))
