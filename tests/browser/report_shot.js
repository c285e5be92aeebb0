// Manual check, not run by CI (needs Node, `npm install playwright-core` and Debian chromium):
//   gcperf report fixtures/ --out /tmp/rep && NODE_PATH=<dir with node_modules> node tests/browser/report_shot.js /tmp/rep/index.html /tmp/rep.png
// prints how many images loaded, fails on any not loaded or any non-file request.
// Open a report's index.html from disk in headless Chromium; check every image loaded.
const { chromium } = require('playwright-core');
(async () => {
  const [page_path, shot] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const requests = [];
  page.on('request', r => { if (!r.url().startsWith('file://')) requests.push(r.url()); });
  await page.goto('file://' + page_path, { waitUntil: 'load' });
  const imgs = await page.$$eval('img', els => els.map(i => ({
    src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0, w: i.naturalWidth, h: i.naturalHeight })));
  const bad = imgs.filter(i => !i.ok);
  console.log(`images: ${imgs.length}, loaded: ${imgs.length - bad.length}, not loaded: ${bad.length}`);
  for (const b of bad) console.log('NOT LOADED', b.src);
  console.log(`non-file requests: ${requests.length}`);
  console.log(`sizes: ${[...new Set(imgs.map(i => i.w + 'x' + i.h))].join(', ')}`);
  await page.screenshot({ path: shot, fullPage: false });
  await page.evaluate(() => document.querySelector('section').scrollIntoView());
  await page.screenshot({ path: shot.replace('.png', '-2.png') });
  await browser.close();
  process.exit(bad.length || requests.length ? 1 : 0);
})();
