// The Activity page: the organization's audit log, newest first, a page at a time, each line a sentence.
import { api, messageOf } from './api.js';
import { showContent, startShell } from './shell.js';
import { busy, clearAlert, el, showAlert, showTable, timeEl } from './ui.js';

const PAGE_SIZE = 25;
const $ = (id) => document.getElementById(id);
let cursor = null;
let shown = 0;

async function main() {
  await startShell({ onProjectChange: reload });
  $('load-more').addEventListener('click', (event) => busy(event.currentTarget, 'Loading…', loadPage));
  await reload();
  showContent();
}

async function reload() {
  cursor = null;
  shown = 0;
  $('activity-body').replaceChildren();
  await loadPage();
}

async function loadPage() {
  const status = $('activity-status');
  try {
    const query = '?limit=' + PAGE_SIZE + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
    const page = await api('GET', '/api/v1/audit-events' + query);
    $('activity-body').append(...page.events.map(row));
    shown += page.events.length;
    cursor = page.next_cursor;
    clearAlert(status);
  } catch (error) {
    showAlert(status, 'error', messageOf(error, 'The activity could not be loaded.'));
  }
  $('load-more').hidden = !cursor;
  showTable('activity', shown > 0);
  $('activity-count').textContent = shown === 1 ? '1 event' : shown + (cursor ? '+' : '') + ' events';
}

function row(event) {
  return el('tr', { 'data-action': event.action, 'data-event-id': event.id },
    el('td', { class: 'num', 'data-label': 'When' }, timeEl(event.occurred_at, true)),
    el('td', { class: 'sentence', 'data-label': 'What' }, el('span', {}, ...sentence(event))),
    el('td', { class: 'muted', 'data-label': 'From', title: event.user_agent || '' }, event.ip || '—'));
}

/** Who, as a person reads it: an email, "key ci-deploy", "the payment provider". */
function who(actor) {
  if (!actor) return 'Someone';
  switch (actor.type) {
    case 'customer': return actor.label || 'A customer';
    case 'api_key': return 'key ' + (actor.label || actor.id);
    case 'provider': return 'The payment provider';
    default: return actor.label || 'kv-portal';
  }
}

/** The target's name, emphasized. */
function what(target) {
  return el('em', {}, target ? target.label || target.id || '' : '');
}

const TIER = { free: 'Free', pro: 'Pro' };

function sentence(event) {
  const actor = who(event.actor);
  const target = event.target;
  const details = event.details || {};
  switch (event.action) {
    case 'customer.signed_up': return [actor + ' signed up'];
    case 'customer.logged_in': return [actor + ' logged in'];
    case 'customer.logged_out': return [actor + ' logged out'];
    case 'customer.login_failed':
      return ['Failed login for ' + (target && target.label ? target.label : actor)
        + ({ too_many_attempts: ' (locked after too many attempts)', invalid_code: ' (wrong two-step login code)' }[details.reason]
          || ' (wrong password)')];
    case 'project.created': return [actor + ' created project ', what(target)];
    case 'api_key.created': return [actor + ' created key ', what(target)];
    case 'api_key.updated': return [actor + ' changed key ', what(target), changes(details.changes)];
    case 'api_key.rolled': return [actor + ' rolled key ', what(target),
      details.grace_seconds === 0 ? ' (the old key was revoked at once)' : ' (the old key works for ' + duration(details.grace_seconds) + ')'];
    case 'api_key.revoked': return [actor + ' revoked key ', what(target)];
    case 'api_key.leaked': return ['Key ', what(target), ' was found in public' + (details.url ? ' at ' + details.url : '') + ' and revoked'];
    case 'billing.checkout_started': return [actor + ' started a checkout for ' + (TIER[details.tier] || details.tier || 'a plan')];
    case 'subscription.activated': return [actor + ' activated the ' + (TIER[details.tier] || details.tier || '') + ' subscription'];
    case 'subscription.updated': return [actor + ' updated the subscription' + (details.status ? ' (now ' + details.status + ')' : '')];
    case 'subscription.cancel_scheduled': return [actor + ' scheduled the subscription to end' + (details.cancel_at ? ' on ' + new Date(details.cancel_at).toLocaleDateString() : '')];
    case 'subscription.ended': return ['The subscription ended'];
    case 'subscription.duplicate_canceled': return ['A second subscription was canceled and its payment refunded'];
    case 'invoice.paid': return ['Invoice ', what(target), ' was paid'];
    case 'invoice.payment_failed': return ['The payment of invoice ', what(target), ' failed'];
    case 'usage.overage_billed': return ['Storage overage was billed on invoice ', what(target)];
    default: return [actor + ' ' + event.action + ' ', what(target)];
  }
}

function changes(changed) {
  if (!changed) return '';
  const parts = [];
  if (changed.name) parts.push('renamed from “' + changed.name.from + '”');
  if (changed.permissions) parts.push('permissions ' + changed.permissions.from.join(', ') + ' → ' + changed.permissions.to.join(', '));
  if (changed.expires_at) parts.push('expiry ' + new Date(changed.expires_at.to).toLocaleDateString());
  return parts.length ? ': ' + parts.join('; ') : '';
}

function duration(seconds) {
  if (seconds >= 86400) return Math.round(seconds / 86400) + (seconds >= 172800 ? ' days' : ' day');
  if (seconds >= 3600) return Math.round(seconds / 3600) + (seconds >= 7200 ? ' hours' : ' hour');
  return seconds + ' seconds';
}

main();
