// The API keys page: list, create (the raw key shown once), edit (name, permissions, metadata, external id, addresses,
// on/off, rate limits, credits), roll with a grace period (the new key shown once), revoke behind a confirmation.
import { api, ApiError, messageOf } from './api.js';
import { metadataRows } from './metadata-rows.js';
import { showContent, startShell } from './shell.js';
import { wireChartDialog } from './verifications-chart.js';
import { busy, clearAlert, clearErrors, confirmDialog, el, fillTable, formDialog, onSubmit, showAlert, timeEl } from './ui.js';

const DAY_MS = 86400000;
// the server refuses an expiry beyond 365 days from its own clock; stay an hour inside in case ours runs ahead
const MAX_LIFETIME_MS = 365 * DAY_MS - 3600000;

const $ = (id) => document.getElementById(id);
let keys = [];
// whether the role in the current organization may create, edit, roll and revoke keys (else the page only lists)
let mayManage = false;
// whether it may give a key admin, and so edit or roll a key that has it (owners and admins: a key never holds more
// than its creator may do)
let mayGrantAdmin = false;
// opens a key's verifications chart
let openChart = () => {};

async function main() {
  const shell = await startShell({
    onProjectChange: async () => {
      hideNewKey();
      clearErrors($('create-key-form'));
      $('project-title').textContent = shell.activeProjectName();
      await loadKeys();
    },
  });
  $('project-title').textContent = shell.activeProjectName();
  mayManage = shell.may('manage_keys');
  mayGrantAdmin = shell.may('manage_admin_keys');
  $('create-card').hidden = !mayManage;
  for (const box of [$('perm-admin'), $('edit-perm-admin')]) box.disabled = !mayGrantAdmin;
  if (!mayGrantAdmin) {
    $('admin-help').textContent = 'Only owners and admins may give a key admin: a key never does more than the person'
      + ' who made it may.';
  }
  wireCreateForm();
  wireNewKeyPanel();
  wireEditDialog();
  wireLimitsEditor();
  wireRollDialog();
  openChart = wireChartDialog();
  await loadKeys();
  showContent();
}

async function loadKeys() {
  const status = $('list-status');
  try {
    const body = await api('GET', '/api/v1/api-keys');
    keys = body.keys;
    clearAlert(status);
  } catch (error) {
    keys = [];
    showAlert(status, 'error', messageOf(error, 'The keys could not be loaded.'));
  }
  renderKeys();
}

function renderKeys() {
  const now = Date.now();
  fillTable('keys', keys.map((key) => keyRow(key, now)));
  $('key-count').textContent = keys.length === 1 ? '1 key' : keys.length + ' keys';
}

function keyRow(key, now) {
  const expired = new Date(key.expires_at).getTime() <= now;
  const edit = el('button', { type: 'button', class: 'btn btn-secondary btn-small', 'data-action': 'edit', 'aria-label': 'Edit key ' + key.name }, 'Edit');
  edit.addEventListener('click', () => editKey(key, edit));
  const roll = el('button', { type: 'button', class: 'btn btn-secondary btn-small', 'data-action': 'roll', 'aria-label': 'Roll key ' + key.name }, 'Roll');
  roll.addEventListener('click', () => rollKey(key, roll));
  const revoke = el('button', { type: 'button', class: 'btn btn-danger-outline btn-small', 'data-action': 'revoke', 'aria-label': 'Revoke key ' + key.name }, 'Revoke');
  revoke.addEventListener('click', () => revokeKey(key, revoke));
  const chart = el('button', { type: 'button', class: 'btn btn-secondary btn-small', 'data-action': 'chart', 'aria-label': 'Verifications of key ' + key.name }, 'Chart');
  chart.addEventListener('click', () => openChart(key));
  return el('tr', { 'data-key-id': key.id },
    el('td', { class: 'name', 'data-label': 'Name' }, key.name, limitsSummary(key)),
    el('td', { 'data-label': 'Permissions' }, el('span', { class: 'badges' },
      key.permissions.map((permission) => el('span', { class: permission === 'admin' ? 'badge badge-warning' : 'badge' }, permission)))),
    el('td', { class: 'num', 'data-label': 'Created' }, timeEl(key.created_at)),
    el('td', { class: 'num', 'data-label': 'Expires' }, el('span', { class: 'badges' }, timeEl(key.expires_at, new Date(key.expires_at).getTime() - now < 7 * DAY_MS),
      expired ? el('span', { class: 'badge badge-danger', 'data-expired': '' }, 'Expired') : null,
      // a key switched off: verify and portal calls refuse it (401 api_key_disabled) until it is switched on
      key.enabled === false ? el('span', { class: 'badge badge-warning', 'data-disabled': '', title: 'Switched off: refused until switched on' }, 'Disabled') : null)),
    el('td', { class: 'num', 'data-label': 'Last used' }, key.last_used_at ? timeEl(key.last_used_at, true) : el('span', { class: 'muted' }, 'Never')),
    el('td', { class: 'actions-cell' }, el('span', { class: 'row-actions' }, [chart,
      // a key with admin is edited and rolled by owners and admins only; anyone who manages keys may revoke it
      ...(mayManage ? (key.permissions.includes('admin') && !mayGrantAdmin ? [revoke] : [edit, roll, revoke]) : [])])));
}

function wireCreateForm() {
  const form = $('create-key-form');
  const expiry = $('key-expiry');
  const dateField = $('key-expiry-date-field');
  const dateInput = $('key-expiry-date');
  const today = new Date();
  dateInput.min = isoDay(new Date(today.getTime() + DAY_MS));
  dateInput.max = isoDay(new Date(today.getTime() + 364 * DAY_MS));
  expiry.addEventListener('change', () => {
    dateField.hidden = expiry.value !== 'date';
    if (!dateField.hidden) dateInput.focus();
  });

  const metadata = metadataRows($('key-metadata'), $('key-add-metadata'));
  onSubmit(form, $('create-key'), 'Creating…', async () => {
    clearErrors(form);
    const expiresAt = chosenExpiry(expiry.value, dateInput.value);
    if (expiresAt === undefined) {
      throw new ApiError(400, { errors: [{ field: 'expires_at', message: 'Choose the date the key expires.' }] });
    }
    const created = await api('POST', '/api/v1/api-keys', {
      name: $('key-name').value,
      permissions: [...form.querySelectorAll('input[name="permissions"]:checked')].map((box) => box.value),
      expires_at: expiresAt,
      metadata: metadata.read(),
      allowed_ips: addressesIn($('key-allowed-ips')),
    });
    form.reset();
    metadata.fill({});
    dateField.hidden = true;
    keys = [created.key, ...keys.filter((key) => key.id !== created.key.id)];
    renderKeys();
    showNewKey(created);
  });
}

/** The expiry to send: a preset number of days from now, or the end of the chosen local day. */
function chosenExpiry(choice, date) {
  if (choice === 'date') {
    if (!date) return undefined;
    return new Date(date + 'T23:59:59').toISOString();
  }
  const ms = Math.min(Number(choice) * DAY_MS, MAX_LIFETIME_MS);
  return new Date(Date.now() + ms).toISOString();
}

/** The addresses typed one a line (or separated by commas or spaces); null for none: any address. */
function addressesIn(textarea) {
  const addresses = textarea.value.split(/[\s,]+/).filter((line) => line);
  return addresses.length ? addresses : null;
}

function isoDay(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate());
}

function wireNewKeyPanel() {
  $('copy-key').addEventListener('click', async () => {
    const input = $('new-key-value');
    const status = $('copy-status');
    try {
      await navigator.clipboard.writeText(input.value);
      status.textContent = 'Copied to the clipboard.';
    } catch (e) {
      // no clipboard permission (or not a secure context): select it so that Ctrl+C / long-press copies it
      input.focus();
      input.select();
      status.textContent = document.execCommand && document.execCommand('copy')
        ? 'Copied to the clipboard.'
        : 'Press Ctrl+C (or ⌘C) to copy the selected key.';
    }
  });
  $('dismiss-key').addEventListener('click', () => {
    hideNewKey();
    $('key-name').focus();
  });
}

function showNewKey(created, title) {
  $('new-key-title').textContent = title || 'New key “' + created.key.name + '” created';
  $('new-key-hint').textContent = created.hint;
  $('new-key-value').value = created.api_key;
  $('copy-status').textContent = '';
  const panel = $('new-key');
  panel.hidden = false;
  panel.focus();
  $('new-key-value').select();
}

/** The raw key leaves the page for good: it exists nowhere else. */
function hideNewKey() {
  $('new-key-value').value = '';
  $('copy-status').textContent = '';
  $('new-key').hidden = true;
}

// A dialog with a form about one key, opened from a button in the key's row: closing it gives the focus back to that
// button, unless the submit handler called done() (it then places the focus itself). `submit` runs with `button` busy
// (see onSubmit). Answers the function that opens the dialog for a key.
function keyFormDialog(name, { prepare, focus, button, busyText, submit }) {
  const { dialog, form, open } = formDialog(name);
  let current = null;
  dialog.addEventListener('close', () => {
    if (current) current.button.focus();
  });
  onSubmit(form, $(button), busyText, () => submit(current.key, { dialog, form, done: () => { current = null; } }));
  return (key, opener) => {
    current = { key, button: opener };
    open(() => prepare(key));
    $(focus).focus();
  };
}

let editKey = null;

function wireEditDialog() {
  const metadata = metadataRows($('edit-metadata'), $('edit-add-metadata'));
  editKey = keyFormDialog('edit', {
    prepare(key) {
      $('edit-title').textContent = 'Edit key “' + key.name + '”';
      $('edit-name').value = key.name;
      for (const permission of ['read', 'write', 'admin']) {
        $('edit-perm-' + permission).checked = key.permissions.includes(permission);
      }
      metadata.fill(key.metadata);
      $('edit-external-id').value = key.external_id || '';
      $('edit-allowed-ips').value = (key.allowed_ips || []).join('\n');
      $('edit-enabled').checked = key.enabled !== false;
      prepareLimits(key);
    },
    focus: 'edit-name',
    button: 'edit-save',
    busyText: 'Saving…',
    async submit(key, { dialog, form, done }) {
      const shapedMetadata = metadata.read(); // a bad row is shown, and nothing is asked or sent
      const enabled = $('edit-enabled').checked;
      // switching a key off stops every client that uses it at once: only after a confirmation
      if (key.enabled !== false && !enabled
          && !window.confirm('Switch off the key “' + key.name + '”? Every verify and call with it is refused until it is switched on again.')) {
        return;
      }
      const body = {
        name: $('edit-name').value,
        permissions: [...form.querySelectorAll('input[name="edit-permissions"]:checked')].map((box) => box.value),
        metadata: shapedMetadata,
        external_id: $('edit-external-id').value.trim() || null,
        allowed_ips: addressesIn($('edit-allowed-ips')),
        enabled,
        ...limitsChange(),
      };
      try {
        const updated = await api('PATCH', '/api/v1/api-keys/' + encodeURIComponent(key.id), body);
        keys = keys.map((k) => (k.id === updated.id ? updated : k));
        renderKeys();
        done();
        dialog.close();
        showAlert($('list-status'), 'success', 'Key “' + updated.name + '” was saved.');
        focusRow(updated.id, 'edit');
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'api_key_not_found') throw error;
        dialog.close();
        keys = keys.filter((k) => k.id !== key.id);
        renderKeys();
        showAlert($('list-status'), 'info', 'Key “' + key.name + '” no longer exists in this project.');
      }
    },
  });
}

let rollKey = null;

function wireRollDialog() {
  rollKey = keyFormDialog('roll', {
    prepare(key) {
      $('roll-name').textContent = '“' + key.name + '”';
    },
    focus: 'grace-day',
    button: 'roll-confirm',
    busyText: 'Rolling…',
    async submit(key, { dialog, form, done }) {
      const grace = Number(form.querySelector('input[name="grace"]:checked').value);
      try {
        const rolled = await api('POST', '/api/v1/api-keys/' + encodeURIComponent(key.id) + '/roll', { grace_seconds: grace });
        const rest = keys
          .filter((k) => k.id !== rolled.key.id && !(grace === 0 && k.id === rolled.previous.id))
          .map((k) => (k.id === rolled.previous.id ? { ...k, expires_at: rolled.previous.expires_at } : k));
        keys = [rolled.key, ...rest];
        renderKeys();
        done();
        dialog.close();
        showAlert($('list-status'), 'success', grace === 0
          ? 'Key “' + key.name + '” was rolled; the old key was revoked.'
          : 'Key “' + key.name + '” was rolled; the old key works until ' + formatDateTime(rolled.previous.expires_at) + '.');
        showNewKey(rolled, 'Key “' + rolled.key.name + '” rolled: its new value');
      } catch (error) {
        // a refusal of the key itself, not of the form: the dialog closes and the list says why
        if (!(error instanceof ApiError) || error.errors.length > 0) throw error;
        dialog.close();
        showAlert($('list-status'), 'error', messageOf(error, 'The key could not be rolled.'));
        if (error.code === 'api_key_not_found' || error.code === 'api_key_revoked') {
          keys = keys.filter((k) => k.id !== key.id);
          renderKeys();
        }
      }
    },
  });
}

function formatDateTime(iso) {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

function focusRow(id, action) {
  const button = document.querySelector('#keys-body tr[data-key-id="' + CSS.escape(id) + '"] [data-action="' + action + '"]');
  if (button) button.focus();
}

async function revokeKey(key, button) {
  $('revoke-name').textContent = key.name;
  if (!(await confirmDialog($('revoke-dialog'), button))) return;
  const status = $('list-status');
  await busy(button, 'Revoking…', async () => {
    try {
      await api('DELETE', '/api/v1/api-keys/' + encodeURIComponent(key.id));
      showAlert(status, 'success', 'Key “' + key.name + '” was revoked. Applications using it are refused from now on.');
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'api_key_not_found') {
        showAlert(status, 'error', messageOf(error, 'The key could not be revoked.'));
        return;
      }
      showAlert(status, 'info', 'Key “' + key.name + '” no longer exists in this project.');
    }
    keys = keys.filter((k) => k.id !== key.id);
    renderKeys();
  });
}

main();

// ---- Rate limits and credits: the list's summary and the edit dialog's rows (kept apart from the other fields) ----

const WINDOWS = [[1000, 'second'], [60000, 'minute'], [3600000, 'hour'], [86400000, 'day']];
// whether the credits fields were touched since the dialog opened: only then are credits sent (sending replaces them)
let creditsTouched = false;

/** "100 per minute", "5 per 90 seconds": a rate limit's window in words. */
function windowInWords(limit) {
  const ms = limit.duration_ms;
  for (const [unit, word] of [...WINDOWS].reverse()) {
    if (ms % unit === 0) return limit.limit + ' per ' + (ms === unit ? word : ms / unit + ' ' + word + 's');
  }
  return limit.limit + ' per ' + ms + ' ms';
}

function creditsInWords(credits) {
  if (!credits) return null;
  let text = credits.remaining.toLocaleString('en-US') + ' credits left';
  if (credits.refill) {
    text += ', refilled to ' + credits.refill.amount.toLocaleString('en-US')
      + (credits.refill.interval === 'day' ? ' every day' : ' every month on day ' + credits.refill.day_of_month);
    if (credits.next_refill_at) text += ' (next ' + formatDateTime(credits.next_refill_at) + ')';
  }
  return text;
}

/** The line under a key's name in the list: its rate limits and credits, or nothing. */
function limitsSummary(key) {
  const parts = (key.ratelimits || []).map(windowInWords);
  const credits = creditsInWords(key.credits);
  if (credits) parts.push(credits);
  return parts.length ? el('div', { class: 'muted', 'data-limits': '' }, parts.join(' · ')) : null;
}

function limitRow(limit) {
  const duration = limit ? limit.duration_ms : 60000;
  const known = WINDOWS.find(([unit]) => unit === duration);
  const select = el('select', { 'aria-label': 'Window', 'data-window': '' },
    WINDOWS.map(([unit, word]) => el('option', { value: String(unit) }, 'per ' + word)),
    known ? null : el('option', { value: String(duration) }, 'per ' + duration + ' ms'));
  select.value = String(duration);
  const remove = el('button', { type: 'button', class: 'btn btn-secondary btn-small' }, 'Remove');
  const row = el('div', { class: 'limit-row', 'data-ratelimit': '' },
    el('input', { type: 'text', 'aria-label': 'Name', 'data-name': '', value: limit ? limit.name : '', placeholder: 'per-minute', maxlength: '32' }),
    el('input', { type: 'number', 'aria-label': 'Limit', 'data-limit': '', min: '1', max: '1000000', value: limit ? String(limit.limit) : '100' }),
    select, remove);
  remove.addEventListener('click', () => { row.remove(); addButtonState(); });
  return row;
}

function addButtonState() {
  $('edit-add-ratelimit').disabled = $('edit-ratelimits').children.length >= 5;
}

function creditsFieldsState() {
  $('edit-credits-fields').hidden = !$('edit-credits-on').checked;
  const refill = $('edit-credits-refill').value;
  $('edit-credits-amount').disabled = !refill;
  $('edit-credits-day').disabled = refill !== 'month';
}

function wireLimitsEditor() {
  $('edit-add-ratelimit').addEventListener('click', () => {
    $('edit-ratelimits').append(limitRow(null));
    addButtonState();
  });
  for (const id of ['edit-credits-on', 'edit-credits-remaining', 'edit-credits-refill', 'edit-credits-amount', 'edit-credits-day']) {
    $(id).addEventListener('input', () => { creditsTouched = true; creditsFieldsState(); });
    $(id).addEventListener('change', () => { creditsTouched = true; creditsFieldsState(); });
  }
}

function prepareLimits(key) {
  $('edit-ratelimits').replaceChildren(...(key.ratelimits || []).map(limitRow));
  addButtonState();
  const credits = key.credits;
  $('edit-credits-now').textContent = credits ? creditsInWords(credits) + '.' : 'Unlimited: no credits are counted.';
  $('edit-credits-on').checked = !!credits;
  $('edit-credits-remaining').value = credits ? String(credits.remaining) : '1000';
  $('edit-credits-refill').value = credits && credits.refill ? credits.refill.interval : '';
  $('edit-credits-amount').value = credits && credits.refill ? String(credits.refill.amount) : '';
  $('edit-credits-day').value = credits && credits.refill && credits.refill.day_of_month ? String(credits.refill.day_of_month) : '1';
  creditsTouched = false;
  creditsFieldsState();
}

/** The update's rate limits (always: they replace) and credits (only when touched: they replace, a top-up). */
function limitsChange() {
  const ratelimits = [...$('edit-ratelimits').children].map((row) => ({
    name: row.querySelector('[data-name]').value.trim(),
    limit: Number(row.querySelector('[data-limit]').value),
    duration_ms: Number(row.querySelector('[data-window]').value),
  }));
  if (!creditsTouched) return { ratelimits };
  if (!$('edit-credits-on').checked) return { ratelimits, credits: null };
  const interval = $('edit-credits-refill').value;
  const refill = interval ? { amount: Number($('edit-credits-amount').value), interval } : null;
  if (refill && interval === 'month') refill.day_of_month = Number($('edit-credits-day').value);
  return { ratelimits, credits: { remaining: Number($('edit-credits-remaining').value), refill } };
}
