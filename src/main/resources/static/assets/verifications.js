// The Verifications page: the organization's busiest keys over the last 30 days and its refusals by reason.
import { api, messageOf } from './api.js';
import { showContent, startShell } from './shell.js';
import { clearAlert, el, fillTable, showAlert } from './ui.js';
import { rangeQuery, REFUSALS } from './verifications-chart.js';

const $ = (id) => document.getElementById(id);

async function main() {
  await startShell({ onProjectChange: load });
  await load();
  showContent();
}

async function load() {
  const query = rangeQuery('hour'); // the last 30 days
  await Promise.all([loadTopKeys('?limit=10&' + query.slice(query.indexOf('start='))), loadRefusals(query)]);
}

async function loadTopKeys(query) {
  const status = $('top-keys-status');
  try {
    const answer = await api('GET', '/api/v1/verifications/top-keys' + query);
    clearAlert(status);
    fillTable('top-keys', answer.keys.map((key) => el('tr', { 'data-key-id': key.id },
      el('td', { class: 'name', 'data-label': 'Key' }, key.name),
      el('td', { class: 'num', 'data-label': 'Accepted' }, String(key.valid)),
      el('td', { class: 'num', 'data-label': 'Refused' }, String(key.refused)))));
  } catch (error) {
    fillTable('top-keys', []);
    showAlert(status, 'error', messageOf(error, 'The busiest keys could not be loaded.'));
  }
}

async function loadRefusals(query) {
  const status = $('refusals-status');
  try {
    const answer = await api('GET', '/api/v1/verifications' + query);
    clearAlert(status);
    const sums = Object.keys(REFUSALS).map((outcome) =>
      [outcome, answer.buckets.reduce((sum, bucket) => sum + (bucket[outcome] || 0), 0)]);
    const total = sums.reduce((sum, [, count]) => sum + count, 0);
    $('refusals-total').textContent = total === 0 ? 'No refused verifies in the last 30 days.'
      : total + (total === 1 ? ' refused verify' : ' refused verifies') + ' in the last 30 days.';
    $('refusals').replaceChildren(...sums.filter(([, count]) => count > 0).sort((a, b) => b[1] - a[1])
      .map(([outcome, count]) => el('li', { 'data-outcome': outcome, 'data-count': String(count) },
        el('span', {}, REFUSALS[outcome]),
        el('span', { class: 'refusal-bar', style: 'width: ' + Math.max(2, Math.round((count / total) * 100)) + '%' }),
        el('strong', { class: 'num' }, String(count)))));
  } catch (error) {
    showAlert(status, 'error', messageOf(error, 'The refusals could not be loaded.'));
  }
}

main();
