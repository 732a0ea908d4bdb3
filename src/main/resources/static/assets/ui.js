// Small DOM helpers. Data from the API only ever reaches the page as text (textContent, attributes set
// one by one), never as markup, so a key named <img src=x onerror=...> shows literally.
import { ApiError, forPeople } from './api.js';

/** Creates an element: `attrs` are attributes (booleans toggle), children are nodes or strings (as text). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (value === true) node.setAttribute(name, '');
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A <time> element for an ISO timestamp; `withTime` adds the time of day. */
export function timeEl(iso, withTime = false) {
  if (!iso) return document.createTextNode('—');
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return document.createTextNode(String(iso));
  return el('time', { datetime: iso, title: date.toISOString() }, (withTime ? dateTimeFormat : dateFormat).format(date));
}

export function formatDate(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : dateFormat.format(date);
}

export function formatMoney(cents, currency = 'usd') {
  const amount = (Number(cents) || 0) / 100;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: String(currency).toUpperCase() }).format(amount);
  } catch (e) {
    return amount.toFixed(2) + ' ' + String(currency).toUpperCase();
  }
}

/** Bytes as GiB, the unit the plans are sold in. */
export function formatGiB(bytes) {
  const gib = (Number(bytes) || 0) / 1073741824;
  return (Number.isInteger(gib) ? String(gib) : gib.toFixed(1)) + ' GiB';
}

/** Only http(s) addresses may be followed or linked: never javascript: or data: from a response. */
export function safeUrl(value) {
  try {
    const url = new URL(value, location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch (e) {
    return null;
  }
}

/** Shows the table `{name}-table-wrap` when it has rows, else its empty state `{name}-empty` (fragments/table-start). */
export function showTable(name, hasRows) {
  document.getElementById(name + '-empty').hidden = hasRows;
  document.getElementById(name + '-table-wrap').hidden = !hasRows;
}

/** Puts the rows in the table's `{name}-body`, and the table or its empty state on view. */
export function fillTable(name, rows) {
  document.getElementById(name + '-body').replaceChildren(...rows);
  showTable(name, rows.length > 0);
}

/** Shows a message in an alert box: kind is info, success, warning or error; `action` an optional button. */
export function showAlert(container, kind, message, action) {
  container.replaceChildren(el('div', { class: 'alert alert-' + kind, role: kind === 'error' || kind === 'warning' ? 'alert' : 'status' },
    el('p', {}, message), action || null));
  container.hidden = false;
}

export function clearAlert(container) {
  container.replaceChildren();
  container.hidden = true;
}

/** Removes every field error and the form-level error of a form. */
export function clearErrors(form) {
  for (const slot of form.querySelectorAll('[data-error-for]')) {
    slot.textContent = '';
    slot.hidden = true;
  }
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  const formError = form.querySelector('[data-form-error]');
  if (formError) clearAlert(formError);
}

/**
 * Puts an API error next to the fields it names (`errors[].field` of a 400 validation_failed, or the one field
 * a code points at) and anything else in the form's own alert; focuses the first field at fault.
 */
export function showErrors(form, error, fieldOfCode = {}) {
  clearErrors(form);
  const leftovers = [];
  let first = null;
  const fieldErrors = error.errors && error.errors.length ? error.errors
    : fieldOfCode[error.code] ? [{ field: fieldOfCode[error.code], message: error.message, ownWords: true }] : [];
  for (const item of fieldErrors) {
    const slot = form.querySelector('[data-error-for="' + CSS.escape(String(item.field)) + '"]');
    const message = sentence(slot, item);
    if (!slot) {
      leftovers.push(message);
      continue;
    }
    slot.textContent = slot.textContent ? slot.textContent + ' ' + message : message;
    slot.hidden = false;
    const target = form.querySelector('[data-field="' + CSS.escape(String(item.field)) + '"]');
    if (target) {
      target.setAttribute('aria-invalid', 'true');
      if (!first) first = target;
    }
  }
  const formError = form.querySelector('[data-form-error]');
  if (!fieldErrors.length || leftovers.length) {
    const text = fieldErrors.length ? leftovers.join(' ') : error.message;
    if (formError) showAlert(formError, 'error', text);
  }
  if (first) first.focus();
  else if (formError && !formError.hidden) formError.focus();
}

/**
 * "is required" becomes "Name is required."; messages that already read as a sentence stay as they are. A field
 * whose slot has a `data-hint` (what to type, in the form's own terms: GiB, dollars, percentages) shows that
 * instead of the API's words, which speak of the request (bytes, cents, arrays).
 */
function sentence(slot, item) {
  if (slot && slot.dataset.hint && !item.ownWords) return slot.dataset.hint;
  const message = forPeople(String(item.message || '')) || 'is not valid';
  const label = slot ? slot.dataset.label : String(item.field);
  const text = /^[a-z]/.test(message) ? label + ' ' + message : message;
  return /[.!?]$/.test(text) ? text : text + '.';
}

/** Disables a button while a promise runs and shows `busyText` on it. */
export async function busy(button, busyText, work) {
  const text = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  if (busyText) button.textContent = busyText;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = text;
  }
}

/**
 * Runs `work` when the form is sent, with `button` busy meanwhile; an API error that `work` lets through is shown in
 * the form (`fieldOfCode` as for showErrors), anything else is thrown on.
 */
export function onSubmit(form, button, busyText, work, fieldOfCode = {}) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await busy(button, busyText, async () => {
      try {
        await work();
      } catch (error) {
        if (error instanceof ApiError) showErrors(form, error, fieldOfCode);
        else throw error;
      }
    });
  });
}

/**
 * A dialog with a form, as the page names them: `{name}-dialog`, `{name}-form` and its `{name}-cancel` button, which
 * closes it. `open(prepare)` shows it with the form as new (its fields reset, no errors) once `prepare` has filled it.
 */
export function formDialog(name) {
  const dialog = document.getElementById(name + '-dialog');
  const form = document.getElementById(name + '-form');
  document.getElementById(name + '-cancel').addEventListener('click', () => dialog.close());
  return {
    dialog,
    form,
    open(prepare = () => {}) {
      form.reset();
      clearErrors(form);
      prepare();
      dialog.showModal();
    },
  };
}

/**
 * Asks for confirmation in a modal dialog: resolves true when the person confirms, false on cancel or Escape (the
 * focus then goes back to `opener`, when given).
 */
export function confirmDialog(dialog, opener) {
  return new Promise((resolve) => {
    dialog.returnValue = '';
    dialog.addEventListener('close', () => {
      const confirmed = dialog.returnValue === 'confirm';
      if (!confirmed && opener) opener.focus();
      resolve(confirmed);
    }, { once: true });
    dialog.showModal();
  });
}
