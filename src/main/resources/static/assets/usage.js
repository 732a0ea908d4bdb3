// The billing page's usage panel: storage now against the allowance, the period's daily storage as a chart
// (line-chart.js), the projected overage and each project's storage.
import { api, messageOf } from './api.js';
import { drawLineChart } from './line-chart.js';
import { busy, clearErrors, el, formatDate, formatMoney, showAlert, showErrors, clearAlert } from './ui.js';

const $ = (id) => document.getElementById(id);
const GIB = 1073741824;

/** Bytes for people: B, KiB, MiB, GiB or TiB with up to two decimals. */
export function formatBytes(bytes) {
  let value = Number(bytes) || 0;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
  return text + ' ' + units[unit];
}

let limitsWired = false;

/** Fills the panel in from the usage answer (a pending GET /api/v1/usage, or one made here). */
export async function loadUsage(answer = api('GET', '/api/v1/usage')) {
  const status = $('usage-status');
  clearAlert(status);
  if (!limitsWired) {
    limitsWired = true;
    $('limits-form').addEventListener('submit', saveLimits);
    $('limits-form').addEventListener('input', () => { $('limits-form').dataset.dirty = 'true'; });
  }
  try {
    const usage = await answer;
    renderUsage(usage);
    renderRefusal(usage.entitlement);
    renderLimits(usage);
  } catch (error) {
    showAlert(status, 'error', 'Your storage usage could not be loaded: ' + messageOf(error, String(error)));
  }
}

function renderUsage(usage) {
  const entitlement = usage.entitlement; // the server's: the effective plan, may it write and why not
  const plan = entitlement.plan;
  const panel = $('usage');
  panel.dataset.tier = usage.tier;
  $('usage-period').textContent = formatDate(usage.period_start) + ' – ' + formatDate(usage.period_end);

  const current = $('usage-current');
  current.textContent = formatBytes(usage.current_bytes);
  current.dataset.bytes = usage.current_bytes;
  current.classList.toggle('over', usage.current_bytes > usage.allowance_bytes);
  $('usage-allowance').textContent = 'of ' + formatBytes(usage.allowance_bytes) + ' included';
  const average = $('usage-average');
  average.textContent = formatBytes(usage.average_bytes);
  average.dataset.bytes = usage.average_bytes;

  const projected = $('usage-projected');
  projected.dataset.cents = usage.projected_overage_cents;
  projected.dataset.units = usage.projected_overage_units;
  projected.textContent = formatMoney(usage.projected_overage_cents);
  projected.classList.toggle('over', usage.projected_overage_units > 0);
  $('usage-projected-detail').textContent = plan.overage_bytes > 0
    ? (usage.projected_overage_units > 0
      ? usage.projected_overage_units + ' × ' + formatBytes(plan.overage_bytes) + ' at ' + formatMoney(plan.overage_price_cents)
        + ', if today\u2019s storage holds until ' + formatDate(usage.period_end)
      : 'none if today\u2019s storage holds until ' + formatDate(usage.period_end))
    : (entitlement.reason === 'allowance_reached'
      ? 'No overage on this plan: writes are refused at the limit. Upgrade for more storage.'
      : 'No overage on this plan: writes stop at the limit.');

  const bar = $('usage-bar');
  const share = usage.allowance_bytes > 0 ? usage.current_bytes / usage.allowance_bytes : 0;
  bar.setAttribute('aria-valuemax', String(usage.allowance_bytes));
  bar.setAttribute('aria-valuenow', String(usage.current_bytes));
  bar.setAttribute('aria-valuetext', formatBytes(usage.current_bytes) + ' of ' + formatBytes(usage.allowance_bytes));
  const fill = $('usage-bar-fill');
  fill.style.width = Math.min(100, share * 100).toFixed(1) + '%';
  fill.className = 'usage-bar-fill' + (share >= 1 ? (plan.overage_bytes > 0 ? ' over' : ' full') : '');

  const total = usage.projects.reduce((sum, p) => sum + p.current_bytes, 0);
  $('usage-projects-body').replaceChildren(...usage.projects.map((p) => el('tr', { 'data-project-id': p.project_id },
    el('td', { 'data-label': 'Project' }, p.name),
    el('td', { class: 'num', 'data-label': 'Stored now', 'data-bytes': String(p.current_bytes) }, formatBytes(p.current_bytes)),
    el('td', { class: 'num', 'data-label': 'Share' }, total > 0 ? Math.round((p.current_bytes / total) * 100) + ' %' : '—'))));

  renderChart(usage);
}

/** What the server says about writes: a banner with the reason and what to do while they are refused. */
const REFUSALS = {
  storage_cap: ['Writes are refused: your storage reached your storage cap.',
    'Raise or remove the storage cap under Limits and alerts, or delete data, to write again.'],
  overage_cap: ['Writes are refused: this period\u2019s projected overage reached your overage cap.',
    'Raise or remove the overage cap under Limits and alerts, or delete data, to write again.'],
  allowance_reached: ['Writes are refused: your storage reached the allowance of your plan.',
    'Upgrade to a plan with more storage, or delete data, to write again.'],
};

function renderRefusal(entitlement) {
  const banner = $('writes-refused');
  banner.dataset.reason = entitlement.reason || '';
  if (entitlement.write_allowed) {
    clearAlert(banner);
    return;
  }
  const [what, next] = REFUSALS[entitlement.reason] || ['Writes are refused.', 'Contact support.'];
  banner.replaceChildren(el('div', { class: 'alert alert-error', role: 'alert' },
    el('p', {}, el('strong', {}, what)), el('p', {}, next)));
  banner.hidden = false;
}

/** The limits in force, in GiB and dollars as the server states them, and the form to change them. */
function renderLimits(usage) {
  const plan = usage.entitlement.plan;
  const limits = usage.limits;
  const items = limits.alert_thresholds.map((level) => el('li', { 'data-threshold': String(level.percent) },
    'Alert at ' + level.percent + ' % of the allowance: ' + formatBytes(level.bytes) + '.'));
  if (!items.length) items.push(el('li', {}, 'No alerts.'));
  items.push(el('li', { id: 'limits-storage-cap-meaning' }, limits.storage_cap_bytes === null
    ? 'No storage cap.'
    : 'Writes are refused once storage reaches ' + formatBytes(limits.storage_cap_bytes) + '.'));
  if (plan.overage_bytes > 0) {
    items.push(el('li', { id: 'limits-overage-cap-meaning' }, limits.overage_cap_cents === null
      ? 'No overage cap: storage above ' + formatBytes(usage.allowance_bytes) + ' is billed at '
        + formatMoney(plan.overage_price_cents) + ' per ' + formatBytes(plan.overage_bytes) + '.'
      : 'Overage is capped at ' + formatMoney(limits.overage_cap_cents) + ' a period, which pays for up to '
        + formatBytes(limits.overage_cap_bytes) + ' above the ' + formatBytes(usage.allowance_bytes)
        + ' allowance (on the period\u2019s average); writes are refused once the projected overage reaches it.'));
  }
  $('limits-meaning').replaceChildren(...items);
  // a plan without overage has nothing to cap
  $('limits-overage-cap-field').hidden = !(plan.overage_bytes > 0);
  const form = $('limits-form');
  if (form.dataset.dirty !== 'true') {
    $('limits-thresholds').value = limits.alert_thresholds.map((level) => level.percent).join(', ');
    $('limits-storage-cap').value = limits.storage_cap_bytes === null ? '' : String(limits.storage_cap_bytes / GIB);
    $('limits-overage-cap').value = limits.overage_cap_cents === null ? '' : (limits.overage_cap_cents / 100).toFixed(2);
  }
  if (location.hash === '#limits' && !form.dataset.scrolled) {
    form.dataset.scrolled = 'true';
    $('limits').scrollIntoView();
  }
}

/** A number typed into the form, scaled; what is not a number is sent as typed, for the server to name. */
function amount(text, scale) {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? Math.round(value * scale) : trimmed;
}

async function saveLimits(event) {
  event.preventDefault();
  const form = $('limits-form');
  clearErrors(form);
  clearAlert($('limits-saved'));
  const thresholds = $('limits-thresholds').value.split(',').map((t) => t.trim()).filter((t) => t !== '')
    .map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  const body = {
    alert_thresholds_percent: thresholds,
    storage_cap_bytes: amount($('limits-storage-cap').value, GIB),
    overage_cap_cents: $('limits-overage-cap-field').hidden ? null : amount($('limits-overage-cap').value, 100),
  };
  await busy($('limits-save'), 'Saving…', async () => {
    try {
      await api('PUT', '/api/v1/usage/limits', body);
      form.dataset.dirty = 'false';
      showAlert($('limits-saved'), 'success', 'Limits saved. The storage backend follows them within a few seconds.');
      await loadUsage();
    } catch (error) {
      showErrors(form, error, { not_on_this_plan: 'overage_cap_cents' });
    }
  });
}

/** Every day of the period on the axis (the days to come stay empty), the daily average and peak, the allowance. */
function renderChart(usage) {
  const byDate = new Map(usage.daily.map((day) => [day.date, day]));
  const labels = [];
  const last = new Date(usage.period_end);
  for (let day = new Date(usage.period_start.slice(0, 10) + 'T00:00:00Z'); day < last; day.setUTCDate(day.getUTCDate() + 1)) {
    labels.push(day.toISOString().slice(0, 10));
  }
  const gib = (bytes) => (bytes === undefined ? null : bytes / GIB);
  const data = {
    labels,
    datasets: [
      { label: 'Daily average', data: labels.map((d) => gib(byDate.get(d)?.average_bytes)), borderColor: '#2454d6',
        backgroundColor: 'rgba(36, 84, 214, 0.12)', fill: true, tension: 0.2, pointRadius: 2 },
      { label: 'Daily peak', data: labels.map((d) => gib(byDate.get(d)?.peak_bytes)), borderColor: '#8a9ab8',
        borderWidth: 1, pointRadius: 0, fill: false, stepped: false },
      { label: 'Allowance', data: labels.map(() => gib(usage.allowance_bytes)), borderColor: '#b42318',
        borderDash: [6, 4], borderWidth: 2, pointRadius: 0, fill: false },
    ],
  };
  if (usage.limits.storage_cap_bytes !== null) {
    data.datasets.push({ label: 'Storage cap', data: labels.map(() => gib(usage.limits.storage_cap_bytes)),
      borderColor: '#7a2e0e', borderDash: [2, 3], borderWidth: 2, pointRadius: 0, fill: false });
  }
  drawLineChart(
    $('usage-chart'),
    data,
    {
      y: { beginAtZero: true, title: { display: true, text: 'GiB' } },
      x: { ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 10 } },
    },
    { callbacks: { label: (ctx) => ctx.dataset.label + ': ' + (ctx.parsed.y === null ? '—' : formatBytes(ctx.parsed.y * GIB)) } },
  );
}
