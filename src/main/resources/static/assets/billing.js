// The billing page: current plan and status, the plans, checkout, the provider's portal, cancel, invoices.
import { api, ApiError, messageOf } from './api.js';
import { showContent, startShell } from './shell.js';
import { loadUsage } from './usage.js';
import { busy, clearAlert, confirmDialog, el, fillTable, formatDate, formatGiB, formatMoney, safeUrl, showAlert, timeEl } from './ui.js';

const $ = (id) => document.getElementById(id);
// the badge of each status that is good news or asks for attention (any other status has a plain badge)
const SUBSCRIPTION_BADGES = {
  active: 'badge-success',
  trialing: 'badge-info',
  past_due: 'badge-warning',
  incomplete: 'badge-warning',
  unpaid: 'badge-danger',
};
const INVOICE_BADGES = { paid: 'badge-success', open: 'badge-warning', uncollectible: 'badge-danger' };
// a status reads as its word in sentence case ('past_due': 'Past due'), but for these
const STATUS_WORDS = { trialing: 'Trial', incomplete_expired: 'Expired' };

/** A subscription's or an invoice's status as its badge shows it: the text, and the class from its table. */
function statusBadge(status, badges) {
  const text = STATUS_WORDS[status] || status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ');
  return { text, className: 'badge ' + (badges[status] || '') };
}

// entitlement: the server's answer (GET /api/v1/usage): the effective plan, the status that grants it, may it write
let state = { plans: [], subscription: null, invoices: [], entitlement: null };
// whether the role in the current organization may check out, open the portal and cancel (else the page only shows)
let mayManage = false;

async function main() {
  // the organization's billing does not depend on the project, but a project of another organization might
  const shell = await startShell({ onProjectChange: refresh });
  mayManage = shell.may('manage_billing');
  $('limits-form').hidden = !mayManage; // the limits in force still show; setting them is billing's to manage
  const checkout = showCheckoutBanner();
  wireActions();
  await refresh();
  showContent();
  if (checkout === 'success' || checkout === 'pending') awaitProviderConfirmation();
}

async function refresh() {
  const usage = api('GET', '/api/v1/usage');
  const [plans, subscription, invoices, entitlement] = await Promise.all([
    api('GET', '/api/v1/billing/plans').then((body) => body.plans).catch(failed('plans', [])),
    api('GET', '/api/v1/billing/subscription')
      .then((body) => body.subscription)
      .catch((error) => {
        if (error instanceof ApiError && error.status === 404) return null; // subscription_not_found: the free plan
        return failed('subscription', null)(error);
      }),
    api('GET', '/api/v1/billing/invoices').then((body) => body.invoices).catch(failed('invoices', [])),
    usage.then((body) => body.entitlement).catch(() => null), // the usage panel says why it failed
  ]);
  state = { plans: [...plans].sort((a, b) => a.price_cents - b.price_cents), subscription, invoices, entitlement };
  render();
  loadUsage(usage);
}

function failed(what, fallback) {
  return (error) => {
    showAlert($('billing-status'), 'error', 'Your ' + what + ' could not be loaded: ' + messageOf(error, String(error)));
    return fallback;
  };
}

function planOf(subscription) {
  if (!subscription) return null;
  return state.plans.find((plan) => plan.id === subscription.plan_id)
    || (subscription.plan && typeof subscription.plan === 'object' ? subscription.plan : null);
}

/** The plan the organization has now, as the server answers it. */
function effectivePlan() {
  return state.entitlement ? state.entitlement.plan : null;
}

/** Whether the subscription grants the plan now (the server names the status that grants it). */
function subscriptionGrantsPlan() {
  return Boolean(state.subscription && state.entitlement && state.entitlement.subscription_status);
}

function render() {
  const subscription = state.subscription;
  const current = effectivePlan();
  $('past-due').hidden = !(subscription && subscription.status === 'past_due');

  const subscribedPlan = planOf(subscription);
  $('current-plan-name').textContent = subscription
    ? (subscribedPlan ? subscribedPlan.name : 'Paid plan')
    : 'Free plan';
  const badge = $('subscription-status');
  if (subscription) {
    const { text, className } = statusBadge(subscription.status, SUBSCRIPTION_BADGES);
    badge.textContent = text;
    badge.className = className;
    badge.hidden = false;
  } else {
    badge.hidden = true;
  }
  $('current-plan-detail').textContent = current ? planSummary(current) : '';

  const trial = $('trial');
  trial.replaceChildren();
  delete trial.dataset.trialEnd;
  trial.hidden = !(subscription && subscription.status === 'trialing' && subscription.trial_end);
  if (!trial.hidden) {
    trial.append('Trial until ', strong(formatDate(subscription.trial_end)),
      '. Your card is charged for ' + (subscribedPlan ? subscribedPlan.name : 'your plan')
      + ' then; until then storage stops at the plan\'s allowance (no overage).');
    trial.dataset.trialEnd = subscription.trial_end;
  }

  const renewal = $('renewal');
  renewal.replaceChildren();
  delete renewal.dataset.cancelAt;
  delete renewal.dataset.scheduledTier;
  if (subscription && subscription.cancel_at) {
    renewal.append('Cancels on ', strong(formatDate(subscription.cancel_at)),
      '. You keep ' + (subscribedPlan ? subscribedPlan.name : 'your plan') + ' until then; after that your organization is on the Free plan. To keep it, use Manage payment.');
    renewal.dataset.cancelAt = subscription.cancel_at;
  } else if (subscription && subscription.scheduled_change) {
    const next = state.plans.find((plan) => plan.tier === subscription.scheduled_change.tier);
    renewal.append('Moves to ' + (next ? next.name : subscription.scheduled_change.tier) + ' on ',
      strong(formatDate(subscription.scheduled_change.effective_at)),
      '. You keep ' + (subscribedPlan ? subscribedPlan.name : 'your plan') + ' until then.');
    renewal.dataset.scheduledTier = subscription.scheduled_change.tier;
  } else if (subscription && subscription.current_period_end && subscriptionGrantsPlan()) {
    renewal.append('Renews on ', strong(formatDate(subscription.current_period_end)), '.');
  } else if (!subscription) {
    renewal.append('Upgrade to get more storage.');
  }

  const hasBillingAccount = Boolean(subscription) || state.invoices.length > 0;
  $('manage-payment').hidden = !hasBillingAccount || !mayManage;
  $('past-due-fix').hidden = !mayManage;
  $('cancel-subscription').hidden = !mayManage || !(subscription && !subscription.cancel_at && subscriptionGrantsPlan());
  $('cancel-plan-change').hidden = !mayManage || !(subscription && subscription.scheduled_change);

  $('plans').replaceChildren(...state.plans.map((plan) => planCard(plan, current)));
  // a code is for a checkout; a live subscription changes plans without one
  $('promotion-code-field').hidden = subscriptionGrantsPlan() || !mayManage;
  renderInvoices();
}

/** ' with 1 GiB of storage', from the plans the server lists; nothing while they are unknown. */
function freeStorage() {
  const free = state.plans.find((plan) => plan.tier === 'free');
  return free ? ' with ' + formatGiB(free.storage_bytes) + ' of storage' : '';
}

function strong(text) {
  return el('strong', {}, text);
}

function planSummary(plan) {
  return formatGiB(plan.storage_bytes) + ' storage'
    + (plan.overage_bytes > 0 ? ', then ' + formatMoney(plan.overage_price_cents) + ' per extra ' + formatGiB(plan.overage_bytes) : '')
    + '.';
}

function planCard(plan, current) {
  const isCurrent = current && current.id === plan.id;
  let action = null;
  if (!mayManage) {
    action = null;
  } else if (!isCurrent && plan.price_cents > 0 && (!current || current.price_cents < plan.price_cents)) {
    action = el('button', { type: 'button', class: 'btn btn-primary btn-block', id: 'upgrade-' + plan.tier, 'data-tier': plan.tier }, 'Upgrade to ' + plan.name);
    action.addEventListener('click', () => upgrade(plan, action));
  } else if (!isCurrent && plan.price_cents === 0) {
    action = el('p', { class: 'muted' }, 'Cancel your subscription to return to this plan.');
  } else if (!isCurrent && current && subscriptionGrantsPlan() && current.price_cents > plan.price_cents) {
    const scheduled = state.subscription.scheduled_change;
    if (scheduled && scheduled.tier === plan.tier) {
      action = el('p', { class: 'muted', id: 'scheduled-' + plan.tier }, 'Starts on ' + formatDate(scheduled.effective_at) + '.');
    } else {
      action = el('button', { type: 'button', class: 'btn btn-secondary btn-block', id: 'downgrade-' + plan.tier, 'data-tier': plan.tier }, 'Downgrade to ' + plan.name);
      action.addEventListener('click', () => downgrade(plan, action));
    }
  }
  return el('article', { class: 'plan' + (isCurrent ? ' current' : ''), 'data-tier': plan.tier, 'aria-label': plan.name + ' plan' },
    el('div', { class: 'plan-head' }, el('h3', {}, plan.name), isCurrent ? el('span', { class: 'badge badge-success' }, 'Current') : null),
    el('div', { class: 'plan-price' }, formatMoney(plan.price_cents), el('small', {}, ' / month')),
    el('ul', {},
      el('li', {}, formatGiB(plan.storage_bytes) + ' storage'),
      el('li', {}, plan.overage_bytes > 0
        ? 'Overage: ' + formatMoney(plan.overage_price_cents) + ' per ' + formatGiB(plan.overage_bytes)
        : 'No overage charges')),
    el('div', { class: 'plan-action' }, action));
}

function renderInvoices() {
  fillTable('invoices', state.invoices.flatMap((invoice) => {
    const status = statusBadge(invoice.status, INVOICE_BADGES);
    const amount = invoice.status === 'paid' ? invoice.amount_paid_cents : invoice.amount_due_cents;
    const url = safeUrl(invoice.hosted_invoice_url);
    const row = el('tr', { 'data-invoice-id': invoice.id, 'data-status': invoice.status },
      el('td', { class: 'num', 'data-label': 'Date' }, timeEl(invoice.created_at)),
      el('td', { class: 'num', 'data-label': 'Period' }, periodOf(invoice)),
      el('td', { class: 'num', 'data-label': 'Amount' }, formatMoney(amount, invoice.currency)),
      el('td', { 'data-label': 'Status' }, el('span', { class: status.className }, status.text)),
      el('td', { class: 'actions-cell' }, url
        ? el('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, 'View invoice',
          el('span', { class: 'visually-hidden' }, ' (opens in a new tab)'))
        : null));
    return [row, ...linesRow(invoice)];
  }));
}

/** An invoice's lines under it (the subscription, a storage overage with its quantity and amount). */
function linesRow(invoice) {
  const lines = Array.isArray(invoice.lines) ? invoice.lines : [];
  if (lines.length === 0) return [];
  return [el('tr', { class: 'invoice-lines', 'data-invoice-lines': invoice.id },
    el('td', { colspan: '5' }, el('ul', { 'aria-label': 'Lines of this invoice' }, ...lines.map((line) =>
      el('li', { 'data-kind': line.kind, 'data-quantity': String(line.quantity), 'data-amount-cents': String(line.amount_cents) },
        el('span', {}, (line.description || LINE_NAMES[line.kind] || 'Subscription')
          + (line.quantity > 1 ? ' (quantity ' + line.quantity + ')' : '')),
        el('span', { class: 'num' }, formatMoney(line.amount_cents, invoice.currency))))),
    totalsOf(invoice)))];
}

const LINE_NAMES = { storage_overage: 'Storage overage', proration: 'Unused time credited', discount: 'Discount' };

/** Subtotal, discount and tax of an invoice, as the provider computed them, and what is due. */
function totalsOf(invoice) {
  const money = (cents) => formatMoney(cents, invoice.currency);
  const part = (name, label, cents) => el('span', { 'data-total': name, 'data-cents': String(cents) }, label + ' ', el('span', { class: 'num' }, cents));
  return el('p', { class: 'invoice-totals muted', 'data-invoice-totals': invoice.id },
    part('subtotal', 'Subtotal', money(invoice.subtotal_cents)), ' · ',
    part('discount', 'Discount', invoice.discount_cents ? '−' + money(invoice.discount_cents) : money(0)), ' · ',
    part('tax', 'Tax', money(invoice.tax_cents)), ' · ',
    part('amount_due', 'Total', money(invoice.amount_due_cents)));
}

/**
 * An invoice's billing period as a range. The first invoice of a subscription states an instant (the payment
 * provider's start = end): it pays for the month that starts then, and shows as that month.
 */
function periodOf(invoice) {
  if (!invoice.period_start || !invoice.period_end) return '—';
  let end = invoice.period_end;
  if (formatDate(invoice.period_start) === formatDate(end)) {
    const month = new Date(invoice.period_start);
    month.setUTCMonth(month.getUTCMonth() + 1);
    end = month.toISOString();
  }
  return el('span', { class: 'period' }, timeEl(invoice.period_start), ' – ', timeEl(end));
}

function showCheckoutBanner() {
  const params = new URLSearchParams(location.search);
  const checkout = params.get('checkout');
  const banner = $('checkout-banner');
  if (checkout === 'success') {
    showAlert(banner, 'success', 'Thank you! Your payment went through and your new plan is active.');
  } else if (checkout === 'pending') {
    showAlert(banner, 'info', 'We are waiting for the payment provider to confirm your payment. This page updates by itself.');
  } else if (checkout === 'canceled') {
    showAlert(banner, 'info', 'Checkout canceled. You have not been charged.');
  }
  if (checkout) {
    // a reload should not repeat the banner
    params.delete('checkout');
    const query = params.toString();
    history.replaceState(null, '', location.pathname + (query ? '?' + query : ''));
  }
  return checkout;
}

/** After checkout, the provider's webhook may land a moment later: look again for a little while. */
async function awaitProviderConfirmation() {
  for (let attempt = 0; attempt < 15; attempt++) {
    // the first invoice's news comes as a draft first: wait until it is settled (paid or open)
    if (subscriptionGrantsPlan() && state.invoices.some((invoice) => invoice.status !== 'draft')) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await refresh();
  }
}

function wireActions() {
  for (const id of ['manage-payment', 'past-due-fix']) {
    const button = $(id);
    button.addEventListener('click', () => openPortal(button));
  }
  $('cancel-subscription').addEventListener('click', cancelSubscription);
  $('cancel-plan-change').addEventListener('click', cancelPlanChange);
}

async function upgrade(plan, button) {
  clearAlert($('billing-status'));
  if (subscriptionGrantsPlan()) {
    await changePlan(plan, button);
    return;
  }
  await busy(button, 'Opening checkout…', async () => {
    try {
      const code = $('promotion-code').value.trim();
      const body = code ? { tier: plan.tier, promotion_code: code } : { tier: plan.tier };
      const session = await api('POST', '/api/v1/billing/checkout', body);
      await leaveFor(session.url, 'checkout');
    } catch (error) {
      showAlert($('billing-status'), 'error', messageOf(error, 'Checkout could not be started.'));
    }
  });
}

/** A live subscription moves to the dearer plan at once, after the customer saw what it charges now. */
async function changePlan(plan, button) {
  const status = $('billing-status');
  let preview;
  try {
    preview = await api('GET', '/api/v1/billing/change-plan/preview?tier=' + encodeURIComponent(plan.tier));
  } catch (error) {
    showAlert(status, 'error', messageOf(error, 'The change could not be priced.'));
    return;
  }
  const subscription = state.subscription;
  $('change-text').textContent = subscription && subscription.status === 'trialing' && subscription.trial_end
    ? 'You move to ' + plan.name + ' now, within your trial, which still ends on ' + formatDate(subscription.trial_end)
      + '. You are charged ' + formatMoney(preview.amount_due_cents, preview.currency) + ' now; then your card is charged'
      + ' for ' + plan.name + ' at ' + formatMoney(plan.price_cents) + ' a month.'
    : 'You move to ' + plan.name + ' now, and a new monthly period starts today. '
      + 'You are charged ' + formatMoney(preview.amount_due_cents, preview.currency)
      + ' now: the new plan\'s month, less the unused time of your current plan.';
  if (!(await confirmDialog($('change-dialog'), button))) return;
  await busy(button, 'Changing…', async () => {
    try {
      const body = await api('POST', '/api/v1/billing/change-plan', { tier: plan.tier });
      showAlert(status, 'success', 'Your organization is on ' + plan.name + ' now.');
      state.subscription = body.subscription;
      await refresh();
    } catch (error) {
      showAlert(status, 'error', messageOf(error, 'The plan could not be changed.'));
    }
  });
}

/** A cheaper plan waits for the end of the period: nothing is charged now, the renewal bills the new plan. */
async function downgrade(plan, button) {
  const status = $('billing-status');
  clearAlert(status);
  const subscription = state.subscription;
  const current = planOf(subscription);
  $('change-text').textContent = 'You keep ' + (current ? current.name : 'your plan') + ' until the end of the current period'
    + (subscription.current_period_end ? ' (' + formatDate(subscription.current_period_end) + ')' : '')
    + '. Then your organization moves to ' + plan.name + ' at ' + formatMoney(plan.price_cents) + ' a month, with '
    + formatGiB(plan.storage_bytes) + ' of storage. Nothing is charged now.';
  if (!(await confirmDialog($('change-dialog'), button))) return;
  await busy(button, 'Scheduling…', async () => {
    try {
      const body = await api('POST', '/api/v1/billing/change-plan', { tier: plan.tier });
      state.subscription = body.subscription;
      render();
      showAlert(status, 'success', 'Your organization moves to ' + plan.name + ' on ' + formatDate(body.effective_at) + '.');
    } catch (error) {
      showAlert(status, 'error', messageOf(error, 'The plan change could not be scheduled.'));
    }
  });
}

/** Calls off the downgrade that waits for the end of the period. */
async function cancelPlanChange() {
  const status = $('billing-status');
  clearAlert(status);
  const subscription = state.subscription;
  const current = planOf(subscription);
  const next = state.plans.find((plan) => plan.tier === subscription.scheduled_change.tier);
  $('keep-text').textContent = 'Your organization stays on ' + (current ? current.name : 'its plan')
    + ' and does not move to ' + (next ? next.name : 'the cheaper plan') + ' at the end of the period.';
  const button = $('cancel-plan-change');
  if (!(await confirmDialog($('keep-dialog'), button))) return;
  await busy(button, 'Keeping…', async () => {
    try {
      const body = await api('DELETE', '/api/v1/billing/change-plan');
      state.subscription = body.subscription;
      render();
      showAlert(status, 'success', 'Your organization stays on ' + (current ? current.name : 'its plan') + '.');
    } catch (error) {
      showAlert(status, 'error', messageOf(error, 'The plan change could not be canceled.'));
    }
  });
}

async function openPortal(button) {
  clearAlert($('billing-status'));
  await busy(button, 'Opening…', async () => {
    try {
      const portal = await api('POST', '/api/v1/billing/portal');
      await leaveFor(portal.url, 'payment portal');
    } catch (error) {
      showAlert($('billing-status'), 'error', messageOf(error, 'The payment portal could not be opened.'));
    }
  });
}

/** Goes to the provider's page; the promise stays pending so that the button stays busy until the page leaves. */
function leaveFor(address, what) {
  const url = safeUrl(address);
  if (!url) throw new ApiError(502, { detail: 'The payment provider answered with an unusable ' + what + ' address.' });
  location.assign(url);
  return new Promise(() => {});
}

async function cancelSubscription() {
  const subscription = state.subscription;
  const plan = planOf(subscription);
  const name = plan ? plan.name : 'your plan';
  $('cancel-text').textContent = 'You keep ' + name + ' until the end of the current period'
    + (subscription.current_period_end ? ' (' + formatDate(subscription.current_period_end) + ')' : '')
    + '. After that your organization moves to the Free plan'
    + freeStorage() + '.';
  if (!(await confirmDialog($('cancel-dialog'), $('cancel-subscription')))) return;
  const status = $('billing-status');
  await busy($('cancel-subscription'), 'Canceling…', async () => {
    try {
      const body = await api('POST', '/api/v1/billing/cancel');
      state.subscription = body.subscription;
      render();
      showAlert(status, 'success', 'Canceled: your subscription ends on '
        + (body.subscription.cancel_at ? formatDate(body.subscription.cancel_at) : 'the end of the period')
        + '. Until then nothing changes.');
    } catch (error) {
      showAlert(status, 'error', messageOf(error, 'The subscription could not be canceled.'));
    }
  });
}

main();
