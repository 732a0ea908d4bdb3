// The Webhooks page: the organization's endpoints (the secret shown once), a test event, and each endpoint's
// delivery log with a retry per delivery. User text is only ever inserted as text.
import { api, messageOf } from './api.js';
import { showContent, startShell } from './shell.js';
import { busy, clearAlert, clearErrors, el, fillTable, showAlert, showErrors, timeEl } from './ui.js';

const TYPES = ['api_key.created', 'api_key.revoked', 'api_key.leaked', 'api_key.expiring', 'usage.threshold_crossed',
  'usage.writes_refused', 'usage.writes_allowed', 'invoice.paid', 'invoice.payment_failed', 'subscription.updated',
  'member.joined', 'member.removed', 'webhook.test'];
const $ = (id) => document.getElementById(id);
let selected = null;

async function main() {
  await startShell({ onProjectChange: loadEndpoints });
  $('event-types').append(...TYPES.map((type) => el('label', { class: 'check' },
    el('input', { type: 'checkbox', name: 'events', value: type, disabled: '' }), ' ' + type)));
  $('events-all').addEventListener('change', () => {
    document.querySelectorAll('input[name=events]').forEach((box) => { box.disabled = $('events-all').checked; });
  });
  $('create-endpoint-form').addEventListener('submit', (event) => {
    event.preventDefault();
    busy($('create-endpoint'), 'Adding…', create);
  });
  $('copy-secret').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('new-secret-value').value);
      $('copy-status').textContent = 'Copied.';
    } catch {
      $('new-secret-value').select();
      $('copy-status').textContent = 'Press Ctrl+C to copy.';
    }
  });
  $('dismiss-secret').addEventListener('click', () => {
    $('new-secret-value').value = '';
    $('new-secret').hidden = true;
  });
  $('refresh-deliveries').addEventListener('click', () => busy($('refresh-deliveries'), 'Loading…', loadDeliveries));
  await loadEndpoints();
  showContent();
}

async function create() {
  const form = $('create-endpoint-form');
  clearErrors(form);
  const body = { url: $('endpoint-url').value.trim(), description: $('endpoint-description').value };
  if (!$('events-all').checked) {
    body.events = [...document.querySelectorAll('input[name=events]:checked')].map((box) => box.value);
  }
  try {
    const created = await api('POST', '/api/v1/webhook-endpoints', body);
    form.reset();
    $('events-all').dispatchEvent(new Event('change'));
    showSecret(created.secret);
    await loadEndpoints();
  } catch (error) {
    showErrors(form, error);
  }
}

function showSecret(secret) {
  $('new-secret-value').value = secret;
  $('copy-status').textContent = '';
  $('new-secret').hidden = false;
  $('new-secret').focus();
}

async function loadEndpoints() {
  const status = $('list-status');
  try {
    const { endpoints } = await api('GET', '/api/v1/webhook-endpoints');
    fillTable('endpoints', endpoints.map(row));
    $('endpoint-count').textContent = endpoints.length === 1 ? '1 endpoint' : endpoints.length + ' endpoints';
    clearAlert(status);
    if (selected && !endpoints.some((e) => e.id === selected.id)) {
      selected = null;
      $('deliveries').hidden = true;
    }
  } catch (error) {
    showAlert(status, 'error', messageOf(error, 'The endpoints could not be loaded.'));
  }
}

/** A small button that runs `work` while it shows `label…` (listeners are attached, never written as markup). */
function button(name, label, work) {
  const node = el('button', { type: 'button', class: 'btn btn-secondary btn-small', 'data-action': name }, label);
  node.addEventListener('click', () => busy(node, label + '…', work));
  return node;
}

function row(endpoint) {
  const action = (name, label, work) => button(name, label, () => work(endpoint));
  return el('tr', { 'data-endpoint-id': endpoint.id },
    el('td', { class: 'sentence', 'data-label': 'URL' }, endpoint.url,
      endpoint.description ? el('div', { class: 'muted' }, endpoint.description) : ''),
    el('td', { class: 'events', 'data-label': 'Events' }, endpoint.events.includes('*') ? 'All' : endpoint.events.join(', ')),
    el('td', { class: 'state', 'data-label': 'State' }, endpoint.disabled ? 'Disabled' : 'Enabled'),
    el('td', { class: 'actions-cell' }, el('span', { class: 'row-actions' },
      action('test', 'Send test event', sendTest),
      action('deliveries', 'Deliveries', (e) => { selected = e; return loadDeliveries(); }),
      action('toggle', endpoint.disabled ? 'Enable' : 'Disable', toggle),
      action('rotate', 'Rotate secret', rotate),
      action('delete', 'Delete', remove))));
}

async function sendTest(endpoint) {
  try {
    await api('POST', '/api/v1/webhook-endpoints/' + endpoint.id + '/test');
    showAlert($('list-status'), 'success', 'A test event is on its way to ' + endpoint.url + '.');
    selected = endpoint;
    await loadDeliveries();
  } catch (error) {
    showAlert($('list-status'), 'error', messageOf(error, 'The test event could not be sent.'));
  }
}

async function toggle(endpoint) {
  await change(() => api('PATCH', '/api/v1/webhook-endpoints/' + endpoint.id, { disabled: !endpoint.disabled }));
}

async function rotate(endpoint) {
  await change(async () => showSecret((await api('POST', '/api/v1/webhook-endpoints/' + endpoint.id
    + '/secret/rotate')).secret));
}

async function remove(endpoint) {
  if (!window.confirm('Delete the endpoint ' + endpoint.url + '? No further deliveries are attempted.')) return;
  await change(() => api('DELETE', '/api/v1/webhook-endpoints/' + endpoint.id));
}

async function change(work) {
  try {
    await work();
    await loadEndpoints();
  } catch (error) {
    showAlert($('list-status'), 'error', messageOf(error, 'The endpoint could not be changed.'));
  }
}

async function loadDeliveries() {
  if (!selected) return;
  const status = $('deliveries-status');
  $('deliveries').hidden = false;
  $('deliveries-of').textContent = 'To ' + selected.url + ', newest first.';
  try {
    const page = await api('GET', '/api/v1/webhook-endpoints/' + selected.id + '/deliveries?limit=50');
    fillTable('deliveries', page.deliveries.map(deliveryRow));
    clearAlert(status);
  } catch (error) {
    showAlert(status, 'error', messageOf(error, 'The deliveries could not be loaded.'));
  }
}

/** Why no answer came, in a person's words, by the reason the service recorded (`last_error`). */
const NO_ANSWER = {
  timeout: 'No answer: the endpoint took longer than the time allowed to answer.',
  connection_refused: 'No answer: the endpoint\'s server refused the connection (nothing listens on that port).',
  connection_closed: 'No answer: the endpoint closed the connection without answering.',
  unreachable: 'No answer: the endpoint\'s server could not be reached (no network route to it).',
  dns: 'Not sent: the host name of the URL did not resolve; check its spelling and its DNS records.',
  tls: 'No answer: the secure connection failed (the certificate is not valid for the host name, or not trusted).',
  target_refused: 'Not sent: the URL\'s host is not a public address, or the URL is no longer allowed.',
  invalid_response: 'The endpoint answered something that is not HTTP.',
  network: 'No answer: a network error interrupted the delivery.',
};

/** What the endpoint answered, and why that is a failure when it is one. */
function response(delivery) {
  if (!delivery.attempts) return 'Not sent yet';
  if (delivery.response_status === null) {
    return el('span', { class: 'delivery-reason' }, NO_ANSWER[delivery.last_error]
      || 'No answer: the endpoint could not be reached, or it closed the connection or took longer than the time'
      + ' allowed without answering.');
  }
  const status = delivery.response_status;
  if (status >= 200 && status < 300) return String(status) + ' (accepted)';
  return el('span', { class: 'delivery-reason' }, String(status) + ': the endpoint refused the event'
    + (status >= 300 && status < 400 ? ' (a redirect, which deliveries do not follow)' : '') + '; it must answer 2xx.');
}

function deliveryRow(delivery) {
  const endpoint = selected;
  return el('tr', { 'data-delivery-id': delivery.id, 'data-status': delivery.status },
    el('td', { 'data-label': 'Event' }, el('div', {},
      el('span', { class: 'event-type' }, delivery.event_type), el('div', { class: 'muted' }, delivery.event_id))),
    el('td', { 'data-label': 'Status' }, delivery.status + ' (' + delivery.attempts
      + (delivery.attempts === 1 ? ' attempt)' : ' attempts)')),
    el('td', { 'data-label': 'Response' }, response(delivery)),
    el('td', { class: 'num', 'data-label': 'Time' }, delivery.duration_ms === null ? '—' : delivery.duration_ms + ' ms'),
    el('td', { class: 'num', 'data-label': 'Last attempt' },
      delivery.last_attempt_at ? timeEl(delivery.last_attempt_at, true) : '—'),
    el('td', { class: 'actions-cell' }, button('retry', 'Retry', async () => {
      try {
        await api('POST', '/api/v1/webhook-endpoints/' + endpoint.id + '/deliveries/' + delivery.id + '/retry');
        showAlert($('deliveries-status'), 'success', 'One more attempt is on its way.');
      } catch (error) {
        showAlert($('deliveries-status'), 'error', messageOf(error, 'The delivery could not be retried.'));
      }
    })));
}

main();
