/**
 * Regenerates the README's pictures (README_PICTURES below: docs/summary.png and docs/comment.png
 * of the broken scenario, docs/failed-run.png, docs/queue-story.png, docs/job-analysis.png), as
 * GitHub shows them: Markdown parsed by cmark-gfm, styled by GitHub's stylesheet, at GitHub's widths
 * (1012 px for a job summary, 780 px for a comment).
 *
 * Runs the demo (scenario and clock fixed, so the pictures change only when the output does), then
 * takes screenshots of demo/summary.html and demo/comment.html in headless Chromium, as tall as the
 * page, or cut between two sections to stay under --max-height. It also measures every table and
 * prints the widest against its panel's width: a table wider than the panel would scroll sideways.
 * Needs Debian's chromium package (`apt-get install -y chromium`), or CHROMIUM=/path/to/chrome.
 * Not part of CI.
 *
 *   npm run screenshot                            every README picture
 *   npm run screenshot -- --scenario broken --max-height 0 --scale 1 --out-dir /tmp
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../test/support/run-action.js';
import { COMMENT_WIDTH, SUMMARY_WIDTH } from './summary-html.js';

const { values } = parseArgs({
  options: {
    /** One scenario's summary.png and comment.png; without it, every README picture. */
    scenario: { type: 'string' },
    now: { type: 'string', default: '2025-10-01T12:00:00Z' },
    /** Device pixels per CSS pixel: 2 stays sharp on high-density screens. */
    scale: { type: 'string', default: '2' },
    /** CSS pixels; sections that end below it are left out. 0: the whole page. */
    'max-height': { type: 'string' },
    /** Where summary.png and comment.png go. */
    'out-dir': { type: 'string', default: 'docs' },
    /** Only the job summary, saved as <name>.png: `--summary-as failed-run` for docs/failed-run.png. */
    'summary-as': { type: 'string' },
    /** Only the pull request comment, saved as <name>.png. */
    'comment-as': { type: 'string' },
    /** Take the pictures of demo/summary.html and demo/comment.html as they are. */
    'skip-demo': { type: 'boolean', default: false },
  },
});

const scale = Number(values.scale);
const DEFAULT_MAX_HEIGHT = 1300;
const outDir = resolve(REPO_ROOT, values['out-dir']);

/** A picture: the demo's page and the width of GitHub's panel it imitates. */
interface Picture {
  name: 'summary' | 'comment';
  width: number;
  /** The picture's file name without .png, when it is not `name`. */
  file?: string;
}

const PICTURES: readonly Picture[] = [
  { name: 'summary', width: SUMMARY_WIDTH },
  { name: 'comment', width: COMMENT_WIDTH },
];

/**
 * The README's pictures: each a scenario's summary or comment, cut before the first section that
 * ends below maxHeight (CSS px); the picture names the sections it leaves out at its foot.
 */
const README_PICTURES: readonly { scenario: string; pictures: Picture[]; maxHeight: number }[] = [
  { scenario: 'broken', pictures: [...PICTURES], maxHeight: DEFAULT_MAX_HEIGHT },
  {
    scenario: 'failed-run',
    pictures: [{ name: 'summary', width: SUMMARY_WIDTH, file: 'failed-run' }],
    maxHeight: DEFAULT_MAX_HEIGHT,
  },
  {
    scenario: 'queue-story',
    pictures: [{ name: 'comment', width: COMMENT_WIDTH, file: 'queue-story' }],
    maxHeight: 700,
  },
  {
    scenario: 'job-analysis',
    pictures: [{ name: 'summary', width: SUMMARY_WIDTH, file: 'job-analysis' }],
    maxHeight: DEFAULT_MAX_HEIGHT,
  },
];

/** The window: the panel plus the page's margins and the panel's borders and padding. */
const FRAME = 2 * 16 + 2 + 2 * 16;

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
function chromiumFlags(work: string, width: number, windowHeight: number): string[] {
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
    `--window-size=${width + FRAME},${windowHeight}`,
  ];
}

function runDemo(scenario: string): void {
  const demo = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(REPO_ROOT, 'scripts', 'demo.ts'),
      '--scenario',
      scenario,
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
  /** The panel's content width and the widest table's full width (scrolled part included). */
  panel: number;
  widestTable: number;
}

const MEASURE = `<script>
(() => {
  const pageTop = document.documentElement.getBoundingClientRect().top;
  const bottom = (element) => Math.ceil(element.getBoundingClientRect().bottom - pageTop);
  const blocks = [...document.querySelectorAll('.markdown-body > *')].map((element) => ({
    tag: element.tagName.toLowerCase(),
    bottom: bottom(element),
    text: (element.querySelector(':scope > summary') ?? element).textContent.trim().slice(0, 80),
  }));
  // GitHub's tables are blocks capped at the panel's width that scroll sideways: their
  // scrollWidth is what they would need.
  const tables = [...document.querySelectorAll('.markdown-body table')];
  const body = document.querySelector('.markdown-body');
  const style = getComputedStyle(body);
  const panel = body.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const widestTable = Math.max(0, ...tables.map((table) => {
    const wasOpen = [];
    for (let up = table.parentElement; up; up = up.parentElement) {
      if (up.tagName === 'DETAILS' && !up.open) { up.open = true; wasOpen.push(up); }
    }
    // Its rows' width is what it takes; more than the panel only if it cannot wrap to fit.
    const rows = [...table.rows].map((row) => row.getBoundingClientRect().width);
    const width = Math.ceil(Math.max(table.scrollWidth > table.clientWidth ? table.scrollWidth : 0, ...rows));
    for (const details of wasOpen) details.open = false;
    return width;
  }));
  document.body.dataset.layout = JSON.stringify({
    height: bottom(document.documentElement), blocks, panel, widestTable,
  });
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
    style += '.more { margin: 0; padding: 0 16px 16px; color: #59636e; font: 14px sans-serif; }\n';
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

function measure(chromium: string, work: string, width: number, page: string): Layout {
  const file = join(work, `measure-${profiles}.html`);
  writeFileSync(file, page);
  const dom = execFileSync(
    chromium,
    [...chromiumFlags(work, width, 800), '--dump-dom', pathToFileURL(file).href],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 },
  );
  const raw = /data-layout="([^"]*)"/.exec(dom)?.[1];
  if (raw === undefined) throw new Error('Chromium did not measure the page');
  return JSON.parse(unescapeHtml(raw)) as Layout;
}

/** Where a section starts: a heading, or a folding section of its own. */
const SECTION = /^(h[1-6]|details)$/;

/**
 * Cuts only in front of a section, so every section shown is whole: keeps the most blocks that
 * end above maxHeight, and names the sections left out.
 */
function chooseCut(layout: Layout, maxHeight: number): Cut | undefined {
  if (maxHeight <= 0 || layout.height <= maxHeight) return undefined;
  const { blocks } = layout;
  let keep = 0;
  for (let i = 1; i < blocks.length; i += 1) {
    const heading = SECTION.test(blocks[i]?.tag ?? '');
    if (heading && (blocks[i - 1]?.bottom ?? Infinity) <= maxHeight) keep = i;
  }
  if (keep === 0) return undefined;
  const omitted = blocks.slice(keep).filter((b) => SECTION.test(b.tag));
  return { keep, omitted: omitted.map((b) => b.text) };
}

/**
 * Reduces a picture to 256 colours with pngquant (Debian's `pngquant` package), when it is
 * installed: a text page loses nothing visible and a picture shrinks to about a third, under the
 * repository's 300 KB a file. False when pngquant is not there.
 */
function reduceColours(file: string): boolean {
  const found = spawnSync('sh', ['-c', 'command -v pngquant'], { encoding: 'utf8' });
  if (found.status !== 0) return false;
  execFileSync(
    'pngquant',
    ['--force', '--skip-if-larger', '--strip', '--output', file, '256', file],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return true;
}

function takePicture(chromium: string, work: string, picture: Picture, maxHeight: number): string {
  const html = join(REPO_ROOT, 'demo', `${picture.name}.html`);
  if (!existsSync(html)) {
    console.error(`${html} does not exist: run "npm run demo" first.`);
    process.exit(1);
  }
  const source = readFileSync(html, 'utf8');
  const full = measure(chromium, work, picture.width, screenshotPage(source, undefined, true));
  const cut = chooseCut(full, maxHeight);
  const { height } = cut
    ? measure(chromium, work, picture.width, screenshotPage(source, cut, true))
    : full;
  const page = join(work, `${picture.name}.html`);
  writeFileSync(page, screenshotPage(source, cut, false));

  const output = join(outDir, `${picture.file ?? picture.name}.png`);
  mkdirSync(dirname(output), { recursive: true });
  rmSync(output, { force: true });
  execFileSync(
    chromium,
    [
      ...chromiumFlags(work, picture.width, height),
      `--force-device-scale-factor=${scale}`,
      `--screenshot=${output}`,
      pathToFileURL(page).href,
    ],
    { stdio: ['ignore', 'ignore', 'ignore'] },
  );
  if (!existsSync(output)) throw new Error('Chromium wrote no screenshot');
  const reduced = reduceColours(output);
  const shown = cut ? `; left out: ${cut.omitted.join(', ')}` : '';
  const fits = full.widestTable <= full.panel ? 'fits' : 'TOO WIDE: it scrolls sideways';
  return (
    `${relative(process.cwd(), output)}: ${picture.width + FRAME}x${height} CSS px at ${scale}x, ` +
    `${Math.round(statSync(output).size / 1024)} KiB${reduced ? '' : ' (pngquant not found: colours not reduced)'}${shown}; ` +
    `widest table ${full.widestTable} px in a ${full.panel} px panel (${fits})`
  );
}

function main(): void {
  const chromium = findChromium();
  const work = mkdtempSync(join(tmpdir(), 'thg-screenshot-'));
  const summaryAs = values['summary-as'];
  const commentAs = values['comment-as'];
  const given = values['max-height'] === undefined ? undefined : Number(values['max-height']);
  const runs =
    values.scenario === undefined && !values['skip-demo']
      ? README_PICTURES
      : [
          {
            scenario: values.scenario ?? 'broken',
            pictures: [
              ...(summaryAs
                ? [{ name: 'summary' as const, width: SUMMARY_WIDTH, file: summaryAs }]
                : []),
              ...(commentAs
                ? [{ name: 'comment' as const, width: COMMENT_WIDTH, file: commentAs }]
                : []),
              ...(summaryAs || commentAs ? [] : PICTURES),
            ],
            maxHeight: DEFAULT_MAX_HEIGHT,
          },
        ];
  try {
    for (const run of runs) {
      if (!values['skip-demo']) runDemo(run.scenario);
      const from = values['skip-demo'] ? 'demo/*.html' : `scenario "${run.scenario}"`;
      console.log(`Pictures of ${from}:`);
      for (const picture of run.pictures) {
        console.log(`  ${takePicture(chromium, work, picture, given ?? run.maxHeight)}`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
