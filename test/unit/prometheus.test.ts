/**
 * The strict Prometheus text parser on text it did not shape: Prometheus' own exposition example
 * and Trunk's published sample (test/fixtures/prometheus/README.md), then what the format forbids.
 * And the typical wait computed from Trunk's time-in-queue histogram.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ExpositionError,
  histogramSeries,
  parseExposition,
  type MetricFamily,
} from '../../src/trunk/prometheus.js';
import { percentile, typicalWait } from '../../src/trunk/queue-wait.js';
import { makeQueueMetrics } from '../support/trunk-v2-data.js';

const fixture = (name: string) =>
  readFileSync(join(__dirname, '..', 'fixtures', 'prometheus', name), 'utf8');

function family(families: MetricFamily[], name: string): MetricFamily {
  const found = families.find((one) => one.name === name);
  expect(found, name).toBeDefined();
  return found as MetricFamily;
}

describe("Prometheus' own exposition example", () => {
  const families = parseExposition(fixture('exposition-example.txt'));

  it('reads every family, with its type and help', () => {
    expect(families.map((one) => [one.name, one.type])).toEqual([
      ['http_requests_total', 'counter'],
      ['msdos_file_access_time_seconds', 'untyped'],
      ['metric_without_timestamp_and_labels', 'untyped'],
      ['something_weird', 'untyped'],
      ['http_request_duration_seconds', 'histogram'],
      ['rpc_duration_seconds', 'summary'],
    ]);
    expect(family(families, 'http_requests_total').help).toBe('The total number of HTTP requests.');
  });

  it('reads labels, escapes, blanks between tokens, timestamps and +Inf', () => {
    expect(family(families, 'http_requests_total').samples[1]).toEqual({
      name: 'http_requests_total',
      labels: { method: 'post', code: '400' },
      value: 3,
      timestamp: 1395066363000,
    });
    expect(family(families, 'msdos_file_access_time_seconds').samples[0]?.labels).toEqual({
      path: 'C:\\DIR\\FILE.TXT',
      error: 'Cannot find file:\n"FILE.TXT"',
    });
    expect(family(families, 'something_weird').samples[0]).toMatchObject({
      value: Infinity,
      timestamp: -3982045,
    });
    expect(family(families, 'metric_without_timestamp_and_labels').samples[0]?.value).toBe(12.47);
  });

  it("groups a histogram's and a summary's suffixed samples under their family", () => {
    const [series] = histogramSeries(family(families, 'http_request_duration_seconds'));
    expect(series?.buckets.at(-1)).toEqual({ le: Infinity, count: 144320 });
    expect(series?.buckets).toHaveLength(6);
    expect(series).toMatchObject({ sum: 53423, count: 144320 });
    expect(family(families, 'rpc_duration_seconds').samples).toHaveLength(7);
  });
});

describe("Trunk's published sample", () => {
  it('reads the depth gauge with its three labels', () => {
    const families = parseExposition(fixture('trunk-sample.txt'));
    expect(families).toEqual([
      {
        name: 'mq_depth_current',
        type: 'gauge',
        help: 'Number of PRs currently in the queue (in any non-terminal state).',
        samples: [
          {
            name: 'mq_depth_current',
            labels: { repo: 'acme/widgets', branch: 'main', queue_type: 'main' },
            value: 4,
          },
        ],
      },
    ]);
    expect(typicalWait(fixture('trunk-sample.txt'))).toBeUndefined();
  });
});

describe('what the format forbids is an error naming the line', () => {
  const cases: [string, string, RegExp][] = [
    ['an HTML page', '<html><body>502</body></html>\n', /line 1/],
    ['no final line feed', 'a 1', /line feed/],
    ['a value that is no number', 'a{b="c"} one\n', /line 1: "one" is not a number/],
    ['an unquoted label value', 'a{b=c} 1\n', /quoted label value/],
    ['an unknown escape', 'a{b="\\t"} 1\n', /escape/],
    ['a label given twice', 'a{b="1",b="2"} 1\n', /twice/],
    ['three tokens after the name', 'a 1 2 3\n', /at most a timestamp/],
    ['a fractional timestamp', 'a 1 2.5\n', /timestamp/],
    ['an unknown TYPE', '# TYPE a meter\na 1\n', /TYPE of a/],
    ['a second TYPE', '# TYPE a gauge\n# TYPE a gauge\na 1\n', /second TYPE/],
    ['TYPE after samples', 'a 1\n# TYPE a gauge\n', /follows its samples/],
    ['a metric in two groups', 'a 1\nb 1\na{x="y"} 2\n', /not one group/],
    ['a histogram without +Inf', '# TYPE h histogram\nh_bucket{le="1"} 1\n', /\+Inf/],
    [
      'buckets out of order',
      '# TYPE h histogram\nh_bucket{le="5"} 1\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 1\n',
      /increasing/,
    ],
    [
      'a count that is not the +Inf bucket',
      '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 3\n',
      /_count/,
    ],
  ];
  it.each(cases)('%s', (_, text, message) => {
    expect(() => parseExposition(text)).toThrow(ExpositionError);
    expect(() => parseExposition(text)).toThrow(message);
  });

  it('ignores comments and blank lines, and takes a trailing comma in labels', () => {
    expect(parseExposition('# just words\n\n  a{b="c",} 1\n')[0]?.samples[0]?.labels).toEqual({
      b: 'c',
    });
  });
});

describe('the typical wait', () => {
  it('places p50 and p90 within their buckets, over the merged pull requests only', () => {
    // 10 merged: 4 within 5–10 min, 4 within 15–30 min, 2 within 30–60 min; failed ones ignored.
    const text = makeQueueMetrics({
      merged: [400, 420, 500, 550, 1000, 1200, 1500, 1700, 2000, 3000],
      failed: [30, 40, 50],
    });
    const wait = typicalWait(text);
    expect(wait?.merged).toBe(10);
    // rank 5 of 10: the 1st of 4 in (900, 1800]: 900 + 900 × 1/4.
    expect(wait?.p50).toEqual({ seconds: 1125, lower: 900, upper: 1800 });
    // rank 9: the 1st of 2 in (1800, 3600].
    expect(wait?.p90).toEqual({ seconds: 2700, lower: 1800, upper: 3600 });
  });

  it('a percentile in the +Inf bucket is "over" the last finite bound', () => {
    const wait = typicalWait(makeQueueMetrics({ merged: [100, 8000, 9000] }));
    expect(wait?.p90).toEqual({ seconds: 7200, lower: 7200, upper: Infinity });
  });

  it('none merged: a count of 0 and no percentile', () => {
    expect(typicalWait(makeQueueMetrics({ merged: [] }))).toEqual({
      merged: 0,
      p50: undefined,
      p90: undefined,
    });
  });

  it('leaves bisection series out and sums the main ones', () => {
    const text = [
      '# TYPE mq_pr_time_in_queue_1h_seconds histogram',
      'mq_pr_time_in_queue_1h_seconds_bucket{queue_type="main",conclusion="merged",le="60"} 1',
      'mq_pr_time_in_queue_1h_seconds_bucket{queue_type="main",conclusion="merged",le="+Inf"} 1',
      'mq_pr_time_in_queue_1h_seconds_bucket{queue_type="bisection",conclusion="merged",le="60"} 0',
      'mq_pr_time_in_queue_1h_seconds_bucket{queue_type="bisection",conclusion="merged",le="+Inf"} 9',
      '',
    ].join('\n');
    expect(typicalWait(text)?.merged).toBe(1);
  });

  it('a bound below zero is no time in queue: an error (a note), never a wait below zero (found by a property)', () => {
    const text = [
      '# TYPE mq_pr_time_in_queue_1h_seconds histogram',
      'mq_pr_time_in_queue_1h_seconds_bucket{queue_type="main",conclusion="merged",le="-60"} 2',
      'mq_pr_time_in_queue_1h_seconds_bucket{queue_type="main",conclusion="merged",le="300"} 4',
      'mq_pr_time_in_queue_1h_seconds_bucket{queue_type="main",conclusion="merged",le="+Inf"} 4',
      '',
    ].join('\n');
    // Valid Prometheus text: the format allows any float as a bound.
    expect(() => parseExposition(text)).not.toThrow();
    expect(() => typicalWait(text)).toThrow(
      new ExpositionError('mq_pr_time_in_queue_1h_seconds: le="-60" is not a time in queue'),
    );
  });

  it('percentile() of an empty histogram is undefined', () => {
    expect(percentile([{ le: Infinity, count: 0 }], 0.5)).toBeUndefined();
  });
});
