// Drives a lakestruct explain HTML page in headless Chromium (playwright-core, the system's chromium):
//   node tests/explain/html_check.mjs PAGE.html CHROMIUM TREE_PATH BYTE_OFFSET
// Prints one JSON line: the tree's field paths, the byte offsets highlighted after a click on the tree
// node TREE_PATH, and the selected field and highlighted offsets after a click on the byte BYTE_OFFSET.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const { chromium } = require("playwright-core");
const [page_, exe, treePath, byteOffset] = process.argv.slice(2);

const browser = await chromium.launch({ executablePath: exe, args: ["--no-sandbox"] });
try {
  const context = await browser.newContext();
  const requests = [];
  context.on("request", (r) => requests.push(r.url()));
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(path.resolve(page_)).href);
  await page.waitForSelector("#tree [data-path]");
  const paths = await page.$$eval("#tree [data-path]", (els) => els.map((e) => e.dataset.path));
  const highlighted = () => page.$$eval("#hex .b.hl", (els) => els.map((e) => Number(e.dataset.o)));
  const selected = () => page.$$eval("#tree .node.sel", (els) => els.map((e) => e.dataset.path));
  await page.locator(`#tree [data-path="${treePath}"]`).click();
  const afterTree = { highlighted: await highlighted(), selected: await selected() };
  await page.locator(`#hex [data-o="${byteOffset}"]`).click();
  const afterByte = { highlighted: await highlighted(), selected: await selected() };
  const external = requests.filter((u) => !u.startsWith("file:"));
  console.log(JSON.stringify({ paths, afterTree, afterByte, errors, external }));
} finally {
  await browser.close();
}
