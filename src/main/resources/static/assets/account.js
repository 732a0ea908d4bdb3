// The account page: email address, password, sessions and two-step login.
import { api, ApiError, messageOf } from './api.js';
import { showContent, startShell } from './shell.js';
import { busy, clearErrors, el, formatDate, showAlert, showErrors } from './ui.js';

const $ = (id) => document.getElementById(id);

/** Sends a form's fields as JSON; answers the API's answer, or null after showing the error in the form. */
async function submit(form, method, path, busyText, fieldOfCode = {}) {
  clearErrors(form);
  const body = Object.fromEntries(new FormData(form).entries());
  return busy(form.querySelector('button[type="submit"]'), busyText, async () => {
    try {
      return (await api(method, path, body)) || {};
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showErrors(form, error, fieldOfCode);
      return null;
    }
  });
}

function renderEmail(session) {
  $('current-email').textContent = session.email;
  const status = $('email-status');
  status.textContent = session.email_verified ? 'Verified' : 'Not verified';
  status.className = 'badge ' + (session.email_verified ? 'badge-success' : 'badge-warning');
}

async function renderSessions() {
  const { sessions } = await api('GET', '/api/v1/account/sessions');
  $('sessions-body').replaceChildren(...sessions.map((s) => {
    const device = el('td', {}, s.user_agent || 'Unknown device', el('br'), el('span', { class: 'muted' }, s.ip || ''));
    let action;
    if (s.current) {
      action = el('span', { class: 'badge badge-success' }, 'This session');
    } else {
      action = el('button', { type: 'button', class: 'btn btn-secondary btn-small', 'data-session': s.id }, 'Sign out');
      action.addEventListener('click', async () => {
        await busy(action, 'Signing out…', async () => {
          try {
            await api('DELETE', '/api/v1/account/sessions/' + encodeURIComponent(s.id));
          } catch (error) {
            showAlert($('sessions-notice'), 'error', messageOf(error, 'The session could not be ended.'));
          }
          await renderSessions();
        });
      });
    }
    return el('tr', { 'data-current': String(s.current) }, device, el('td', {}, formatDate(s.last_seen_at)), el('td', {}, action));
  }));
}

function renderTotp(enabled) {
  $('totp-off').hidden = enabled;
  $('totp-disable-form').hidden = !enabled;
  $('totp-setup-form').hidden = true;
}

async function main() {
  const shell = await startShell({ onProjectChange: async () => {} });
  renderEmail(shell.session);
  renderTotp(shell.session.totp_enabled);
  await renderSessions();
  showContent();

  $('email-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const newEmail = String(new FormData(form).get('new_email') || '');
    if (await submit(form, 'PUT', '/api/v1/account/email', 'Sending…', { email_taken: 'new_email', reauthentication_failed: 'current_password' })) {
      form.reset();
      showAlert($('email-notice'), 'success', 'Open the link we sent to ' + newEmail + ' to complete the change.');
    }
  });

  $('password-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (await submit(form, 'PUT', '/api/v1/account/password', 'Saving…', { reauthentication_failed: 'current_password' })) {
      form.reset();
      showAlert($('password-notice'), 'success', 'Your password is changed; your other sessions have ended.');
      await renderSessions();
    }
  });

  $('end-other-sessions').addEventListener('click', async (event) => {
    await busy(event.currentTarget, 'Signing out…', async () => {
      try {
        await api('DELETE', '/api/v1/account/sessions');
        showAlert($('sessions-notice'), 'success', 'Every other session has ended.');
      } catch (error) {
        showAlert($('sessions-notice'), 'error', messageOf(error, 'The sessions could not be ended.'));
      }
      await renderSessions();
    });
  });

  $('totp-off').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const setup = await submit(form, 'POST', '/api/v1/account/totp', 'Preparing…', { reauthentication_failed: 'current_password' });
    if (setup) {
      form.reset();
      $('totp-secret').textContent = setup.secret;
      $('totp-qr').src = setup.qr_code;
      form.hidden = true;
      $('totp-setup-form').hidden = false;
      $('totp-code').focus();
    }
  });

  $('totp-setup-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await submit(event.currentTarget, 'POST', '/api/v1/account/totp/confirm', 'Turning on…', { invalid_code: 'code' });
    if (answer) {
      $('totp-setup-form').hidden = true;
      $('recovery-codes-list').replaceChildren(...answer.recovery_codes.map((code) => el('li', {}, el('code', {}, code))));
      $('recovery-codes').hidden = false;
    }
  });

  $('totp-disable-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (await submit(form, 'DELETE', '/api/v1/account/totp', 'Turning off…', { invalid_code: 'code', reauthentication_failed: 'current_password' })) {
      form.reset();
      $('recovery-codes').hidden = true;
      renderTotp(false);
      showAlert($('totp-notice'), 'success', 'Two-step login is off.');
    }
  });
}

main();
