/**
 * Regenerates docs/summary.png, the README's picture of the job summary.
 *
 * Runs the demo (scenario and clock fixed, so the picture changes only when the summary does),
 * then takes a screenshot of demo/summary.html in headless Chromium, as tall as the page, or cut
 * between two sections of the summary to stay under --max-height.
 * Needs Debian's chromium package (`apt-get install -y chromium`), or CHROMIUM=/path/to/chrome.
 * Not part of CI.
 *
 *   npm run screenshot
 *   npm run screenshot -- --scenario broken --max-height 0 --scale 1 --out /tmp/summary.png
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../test/support/run-action.js';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'paused' },
    now: { type: 'string', default: '2025-10-01T12:00:00Z' },
    /** CSS pixels. */
    width: { type: 'string', default: '1100' },
    /** Device pixels per CSS pixel: 2 stays sharp on high-density screens. */
    scale: { type: 'string', default: '2' },
    /** CSS pixels; sections that end below it are left out. 0: the whole page. */
    'max-height': { type: 'string', default: '1150' },
    out: { type: 'string', default: 'docs/summary.png' },
    /** Take the picture of demo/summary.html as it is. */
    'skip-demo': { type: 'boolean', default: false },
  },
});

const width = Number(values.width);
const scale = Number(values.scale);
const maxHeight = Number(values['max-height']);
const output = resolve(REPO_ROOT, values.out);
const html = join(REPO_ROOT, 'demo', 'summary.html');

function findChromium(): string {
  const candidates = [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome'];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const found = spawnSync('sh', ['-c', 'command -v "$0"', candidate], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '') return found.stdout.trim();
  }
  console.error(
    'Chromium was not found. On Debian: apt-get update && apt-get install -y chromium ' +
      '(or set CHROMIUM=/path/to/chrome).',
  );
  process.exit(1);
}

let profiles = 0;

/** Flags for a quiet, self-contained headless run that reaches no network; a new profile each. */
function chromiumFlags(work: string, windowHeight: number): string[] {
  profiles += 1;
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--hide-scrollbars',
    '--mute-audio',
    `--user-data-dir=${join(work, `profile-${profiles}`)}`,
    `--window-size=${width},${windowHeight}`,
  ];
}

function runDemo(): void {
  const demo = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(REPO_ROOT, 'scripts', 'demo.ts'),
      '--scenario',
      values.scenario,
      '--now',
      values.now,
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // The demo exits 1 when a gate trips, which some scenarios are there to show.
  if (demo.status === null || demo.status > 1) {
    console.error(`The demo failed (exit ${demo.status}): run "npm run demo" to see why.`);
    process.exit(1);
  }
}

/** Where each top-level block of the summary ends, measured in the browser. */
interface Layout {
  height: number;
  blocks: { tag: string; bottom: number; text: string }[];
}

const MEASURE = `<script>
(() => {
  const pageTop = document.documentElement.getBoundingClientRect().top;
  const bottom = (element) => Math.ceil(element.getBoundingClientRect().bottom - pageTop);
  const blocks = [...document.querySelectorAll('.markdown-body > *')].map((element) => ({
    tag: element.tagName.toLowerCase(),
    bottom: bottom(element),
    text: element.textContent.trim().slice(0, 80),
  }));
  document.body.dataset.layout = JSON.stringify({ height: bottom(document.documentElement), blocks });
})();
</script>`;

/** The blocks shown; the rest are hidden, with a line that names the sections left out. */
interface Cut {
  keep: number;
  omitted: string[];
}

/**
 * The page as the screenshot shows it: the demo's HTML without its caption, cut if asked and, to
 * measure, with a script that records the layout (the demo's own page has a CSP that forbids
 * scripts; this copy does not).
 */
function screenshotPage(source: string, cut: Cut | undefined, measure: boolean): string {
  let style = '.page { padding: 16px; }\n';
  let more = '';
  if (cut) {
    style += `.markdown-body > :nth-child(n + ${cut.keep + 1}) { display: none; }\n`;
    style += '.more { margin: 0; padding: 0 16px 16px; color: #59636e; }\n';
    const names = cut.omitted.map(escapeHtml).join(', ');
    more = `<p class="more">⋯ and further sections: ${names}.</p>\n`;
  }
  let page = source
    .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\n?/, '')
    .replace(/<p class="caption">.*?<\/p>\n?/s, '')
    .replace('</style>', () => `${style}</style>`)
    .replace('</article>', () => `</article>\n${more}`);
  if (measure) page = page.replace('</body>', () => `${MEASURE}\n</body>`);
  return page;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function measure(chromium: string, work: string, page: string): Layout {
  const file = join(work, `measure-${profiles}.html`);
  writeFileSync(file, page);
  const dom = execFileSync(
    chromium,
    [...chromiumFlags(work, 800), '--dump-dom', pathToFileURL(file).href],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 },
  );
  const raw = /data-layout="([^"]*)"/.exec(dom)?.[1];
  if (raw === undefined) throw new Error('Chromium did not measure the page');
  return JSON.parse(unescapeHtml(raw)) as Layout;
}

/**
 * Cuts only in front of a heading, so every section shown is whole: keeps the most blocks that
 * end above maxHeight, and names the headings of the sections left out.
 */
function chooseCut(layout: Layout): Cut | undefined {
  if (maxHeight <= 0 || layout.height <= maxHeight) return undefined;
  const { blocks } = layout;
  let keep = 0;
  for (let i = 1; i < blocks.length; i += 1) {
    const heading = /^h[1-6]$/.test(blocks[i]?.tag ?? '');
    if (heading && (blocks[i - 1]?.bottom ?? Infinity) <= maxHeight) keep = i;
  }
  if (keep === 0) return undefined;
  const omitted = blocks.slice(keep).filter((b) => /^h[1-6]$/.test(b.tag));
  return { keep, omitted: omitted.map((b) => b.text) };
}

function main(): void {
  if (!values['skip-demo']) runDemo();
  if (!existsSync(html)) {
    console.error(`${html} does not exist: run "npm run demo" first.`);
    process.exit(1);
  }
  const chromium = findChromium();
  const work = mkdtempSync(join(tmpdir(), 'thg-screenshot-'));
  try {
    const source = readFileSync(html, 'utf8');
    const full = measure(chromium, work, screenshotPage(source, undefined, true));
    const cut = chooseCut(full);
    const { height } = cut ? measure(chromium, work, screenshotPage(source, cut, true)) : full;
    const page = join(work, 'summary.html');
    writeFileSync(page, screenshotPage(source, cut, false));

    mkdirSync(dirname(output), { recursive: true });
    rmSync(output, { force: true });
    execFileSync(
      chromium,
      [
        ...chromiumFlags(work, height),
        `--force-device-scale-factor=${scale}`,
        `--screenshot=${output}`,
        pathToFileURL(page).href,
      ],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    if (!existsSync(output)) throw new Error('Chromium wrote no screenshot');
    const shown = cut ? `; left out: ${cut.omitted.join(', ')}` : '';
    const from = values['skip-demo'] ? 'demo/summary.html' : `scenario "${values.scenario}"`;
    console.log(
      `Wrote ${relative(process.cwd(), output)}: ${from}, ` +
        `${width}x${height} CSS px at ${scale}x${shown}.`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
