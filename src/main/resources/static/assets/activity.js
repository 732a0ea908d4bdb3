// The Activity page: the organization's audit log, newest first, a page at a time, each line a sentence.
import { api, messageOf } from './api.js';
import { showContent, startShell } from './shell.js';
import { busy, clearAlert, el, formatGiB, formatMoney, showAlert, showTable, timeEl } from './ui.js';

const PAGE_SIZE = 25;
const $ = (id) => document.getElementById(id);
let cursor = null;
let shown = 0;

let organizationName = '';

async function main() {
  const shell = await startShell({ onProjectChange: reload });
  organizationName = shell.organization.name;
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
    el('td', { class: 'muted', 'data-label': 'From', title: event.user_agent || '' }, address(event.ip)));
}

/**
 * An IP address as people write it: IPv6 in its shortest form (RFC 5952: lower case, no leading zeros, the longest
 * run of two or more zero groups as "::"), so 0:0:0:0:0:0:0:1 reads ::1. IPv4, and anything else, stays as it is.
 */
export function address(ip) {
  if (!ip) return '—';
  const text = String(ip);
  if (!text.includes(':') || text.includes('::') || text.split(':').length !== 8) return text.toLowerCase();
  const groups = text.toLowerCase().split(':').map((group) => group.replace(/^0+(?=.)/, ''));
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < groups.length; i++) {
    let j = i;
    while (j < groups.length && groups[j] === '0') j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
  }
  if (best < 0) return groups.join(':');
  return groups.slice(0, best).join(':') + '::' + groups.slice(best + bestLength).join(':');
}

/** Who, as a person reads it: an email, "key ci-deploy", "the payment provider". */
function who(actor) {
  if (!actor) return 'Someone';
  switch (actor.type) {
    case 'customer': return actor.label || 'A former member';
    case 'api_key': return actor.label ? 'Key “' + actor.label + '”' : 'A deleted key';
    case 'provider': return 'The payment provider';
    default: return actor.label ? capitalized(actor.label) : 'kv-portal';
  }
}

function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a target is called when it has no name of its own: never its bare id. */
const UNNAMED = {
  organization: 'the organization',
  project: 'a project',
  api_key: 'a key',
  customer: 'a former member',
  invitation: 'an invitation',
  webhook_endpoint: 'an endpoint',
  invoice: 'an invoice',
  subscription: 'the subscription',
};

/** The target's name, emphasized; the organization shown by its name. */
function what(target) {
  if (!target) return el('em', {}, 'something');
  if (target.type === 'organization' && !target.label) return el('em', {}, organizationName || UNNAMED.organization);
  return el('em', {}, target.label || UNNAMED[target.type] || 'something');
}

const TIER = { free: 'Free', pro: 'Pro', team: 'Team' };
const ROLE = { owner: 'owner', admin: 'admin', developer: 'developer', billing: 'billing', viewer: 'viewer' };

function role(name) {
  return ROLE[name] || name || 'member';
}

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
    case 'customer.email_verified': return [actor + ' verified their email address'];
    case 'customer.email_changed': return [actor + ' changed their email address'
      + (details.previous_email ? ' from ' + details.previous_email : '') + (details.email ? ' to ' + details.email : '')];
    case 'customer.password_changed': return [actor + ' changed their password' + sessionsEnded(details.sessions_ended)];
    case 'customer.password_reset_requested': return ['A password reset link was sent to ', what(target)];
    case 'customer.password_reset': return [actor + ' chose a new password with a reset link' + sessionsEnded(details.sessions_ended)];
    case 'customer.session_ended': return [actor + (details.sessions === 'others' ? ' logged out their other sessions' : ' ended a session')
      + sessionsEnded(details.sessions_ended)];
    case 'customer.totp_enabled': return [actor + ' turned on two-step login'];
    case 'customer.totp_disabled': return [actor + ' turned off two-step login'];
    case 'customer.recovery_code_used': return [actor + ' logged in with a recovery code'
      + (Number.isInteger(details.recovery_codes_left) ? ' (' + details.recovery_codes_left + ' left)' : '')];
    case 'organization.created': return [actor + ' created the organization ', what(target)];
    case 'organization.deleted': return [actor + ' deleted the organization ', what(target)];
    case 'organization.ownership_transferred': return [actor + ' made ', what(target), ' the owner'];
    case 'member.invited': return [actor + ' invited ', what(target), ' as ' + role(details.role)];
    case 'member.invitation_revoked': return [actor + ' withdrew the invitation of ', what(target)];
    case 'member.joined': return [actor + ' joined as ' + role(details.role)];
    case 'member.role_changed': return [actor + ' changed the role of ', what(target),
      ' from ' + role(details.previous_role) + ' to ' + role(details.role)];
    case 'member.removed': return [actor + ' removed ', what(target), ' (' + role(details.role) + ') from the organization'];
    case 'member.left': return [actor + ' left the organization'];
    case 'project.created': return [actor + ' created project ', what(target)];
    case 'api_key.created': return [actor + ' created key ', what(target)];
    case 'api_key.updated': return [actor + ' changed key ', what(target), changes(details.changes)];
    case 'api_key.rolled': return [actor + ' rolled key ', what(target),
      details.grace_seconds === 0 ? ' (the old key was revoked at once)' : ' (the old key works for ' + duration(details.grace_seconds) + ')'];
    case 'api_key.revoked': return [actor + ' revoked key ', what(target)];
    case 'api_key.leaked': return ['Key ', what(target), ' was found in public' + (details.url ? ' at ' + details.url : '') + ' and revoked'];
    case 'webhook_endpoint.created': return [actor + ' added the webhook endpoint ', what(target)];
    case 'webhook_endpoint.updated': return [actor + ' changed the webhook endpoint ', what(target)];
    case 'webhook_endpoint.deleted': return [actor + ' deleted the webhook endpoint ', what(target)];
    case 'webhook_endpoint.secret_rotated': return [actor + ' rotated the signing secret of ', what(target)];
    case 'webhook_endpoint.disabled': return ['The webhook endpoint ', what(target), ' was turned off after failing deliveries'];
    case 'billing.checkout_started': return [actor + ' started a checkout for ' + (TIER[details.tier] || details.tier || 'a plan')];
    case 'subscription.activated': return [actor + ' activated the ' + (TIER[details.tier] || details.tier || '') + ' subscription'];
    case 'subscription.updated': return [actor + ' updated the subscription' + (details.status ? ' (now ' + details.status + ')' : '')];
    case 'subscription.cancel_scheduled': return [actor + ' scheduled the subscription to end' + (details.cancel_at ? ' on ' + new Date(details.cancel_at).toLocaleDateString() : '')];
    case 'subscription.ended': return ['The subscription ended'];
    case 'subscription.duplicate_canceled': return ['A second subscription was canceled and its payment refunded'];
    case 'invoice.paid': return ['Invoice ', what(target), ' was paid'];
    case 'invoice.payment_failed': return ['The payment of invoice ', what(target), ' failed'];
    case 'usage.overage_billed': return ['Storage overage was billed on invoice ', what(target)];
    case 'usage.limits_updated': return [actor + ' changed the storage limits and alerts of ', what(target), limitsChange(details)];
    case 'usage.threshold_crossed': return ['The storage of ', what(target), ' reached '
      + (details.threshold_percent ? details.threshold_percent + '\u00a0% of' : 'an alert threshold of') + ' the plan\u2019s allowance'];
    case 'usage.writes_refused': return ['The storage backend began refusing writes for ', what(target)];
    case 'usage.writes_allowed': return ['The storage backend takes writes again for ', what(target)];
    default: return [actor + ' ' + unknownAction(event.action) + ' ', what(target)];
  }
}

/** An action this page does not know yet (a newer server): its words, not its code. */
function unknownAction(action) {
  const [, verb] = String(action).split('.');
  return 'did something (' + String(verb || action).replaceAll('_', ' ') + ') to';
}

function sessionsEnded(count) {
  return Number.isInteger(count) && count > 0 ? '; ' + count + (count === 1 ? ' other session was' : ' other sessions were') + ' ended' : '';
}

/** What changed in the limits, in the units the billing page shows them. */
function limitsChange(details) {
  const to = details.limits;
  if (!to) return '';
  const parts = [];
  parts.push(to.alert_thresholds_percent && to.alert_thresholds_percent.length
    ? 'alerts at ' + to.alert_thresholds_percent.map((p) => p + '\u00a0%').join(', ') : 'no alerts');
  parts.push(to.storage_cap_bytes === null || to.storage_cap_bytes === undefined
    ? 'no storage cap' : 'storage cap ' + formatGiB(to.storage_cap_bytes));
  if (to.overage_cap_cents !== null && to.overage_cap_cents !== undefined) parts.push('overage cap ' + formatMoney(to.overage_cap_cents));
  return ': ' + parts.join(', ');
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
