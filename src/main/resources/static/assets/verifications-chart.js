// A key's verifications over time: accepted (valid) against refused (every other outcome summed), drawn with
// line-chart.js; the tooltip lists the outcomes one by one.
import { api, messageOf } from './api.js';
import { drawLineChart } from './line-chart.js';
import { clearAlert, showAlert } from './ui.js';

/** The refusals, by the name the API gives each outcome, in words. */
export const REFUSALS = {
  revoked: 'Revoked',
  expired: 'Expired',
  disabled: 'Disabled',
  ip_not_allowed: 'IP not allowed',
  rate_limited: 'Rate limited',
  credits_exhausted: 'Credits exhausted',
};

/** Each granularity with the range it covers (the API's default: as far back as that granularity reaches). */
export const RANGES = {
  minute: { words: 'the last 24 h', ms: 86400000 },
  hour: { words: 'the last 30 days', ms: 30 * 86400000 },
  day: { words: 'the last 400 days', ms: 400 * 86400000 },
};

/** The refused count of a bucket: every outcome but valid. */
export function refused(bucket) {
  return Object.keys(REFUSALS).reduce((sum, outcome) => sum + (bucket[outcome] || 0), 0);
}

/**
 * The query for a granularity over its range, up to now: the server's own default for minutes (the last 24 h); for
 * hours and days a start an hour inside the reach, so that a browser clock a little behind the server's stays in it.
 */
export function rangeQuery(granularity) {
  if (granularity === 'minute') return '?granularity=minute';
  const start = new Date(Date.now() - RANGES[granularity].ms + 3600000);
  return '?granularity=' + granularity + '&start=' + encodeURIComponent(start.toISOString());
}

const $ = (id) => document.getElementById(id);
let current = null;

/** Wires the dialog once; answers the function that opens it for a key. */
export function wireChartDialog() {
  $('chart-range').addEventListener('change', () => current && load(current));
  return (key) => {
    current = key;
    $('chart-name').textContent = key.name;
    $('chart-range').value = 'minute';
    $('chart-dialog').showModal();
    return load(key);
  };
}

async function load(key) {
  const granularity = $('chart-range').value;
  const status = $('chart-status');
  const totals = $('chart-totals');
  totals.removeAttribute('data-accepted');
  try {
    const answer = await api('GET', '/api/v1/api-keys/' + encodeURIComponent(key.id) + '/verifications' + rangeQuery(granularity));
    clearAlert(status);
    const accepted = answer.buckets.reduce((sum, b) => sum + (b.valid || 0), 0);
    const refusedSum = answer.buckets.reduce((sum, b) => sum + refused(b), 0);
    totals.textContent = accepted + ' accepted, ' + refusedSum + ' refused in ' + RANGES[granularity].words;
    totals.dataset.accepted = String(accepted);
    totals.dataset.refused = String(refusedSum);
    const empty = accepted + refusedSum === 0;
    $('chart-empty').hidden = !empty;
    $('chart-box').hidden = empty;
    if (!empty) render(answer);
  } catch (error) {
    totals.textContent = '';
    showAlert(status, 'error', messageOf(error, 'The verifications could not be loaded.'));
  }
}

function render(answer) {
  const day = answer.granularity === 'day';
  const labels = answer.buckets.map((b) => (day ? b.start.slice(0, 10) : b.start.slice(0, 16).replace('T', ' ')));
  const data = {
    labels,
    datasets: [
      { label: 'Accepted', data: answer.buckets.map((b) => b.valid || 0), borderColor: '#2454d6',
        backgroundColor: 'rgba(36, 84, 214, 0.12)', fill: true, tension: 0.2, pointRadius: 2 },
      { label: 'Refused', data: answer.buckets.map(refused), borderColor: '#b42318',
        backgroundColor: 'rgba(180, 35, 24, 0.10)', fill: true, tension: 0.2, pointRadius: 2 },
    ],
  };
  const tooltip = {
    callbacks: {
      label: (ctx) => ctx.dataset.label + ': ' + ctx.parsed.y,
      afterBody: (items) => {
        const bucket = answer.buckets[items[0].dataIndex];
        return Object.entries(REFUSALS).filter(([outcome]) => bucket[outcome] > 0)
          .map(([outcome, words]) => '  ' + words + ': ' + bucket[outcome]);
      },
    },
  };
  drawLineChart(
    $('verifications-chart'),
    data,
    { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 8 } } },
    tooltip,
  );
}
