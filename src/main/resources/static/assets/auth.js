// Log-in and sign-up pages.
import { api, ApiError } from './api.js';
import { busy, clearErrors, showAlert, showErrors } from './ui.js';

const params = new URLSearchParams(location.search);

/** The dashboard's own pages, the only destinations after signing in (no open redirect). */
const PAGES = ['/dashboard', '/dashboard/billing', '/dashboard/webhooks', '/dashboard/activity', '/dashboard/members', '/dashboard/account'];

function destination() {
  const next = params.get('next');
  return PAGES.includes(next) ? next : '/dashboard';
}

const notices = {
  expired: ['info', 'Your session has ended. Log in again to continue.'],
  signed_out: ['success', 'You have been logged out.'],
};

async function main() {
  const notice = document.getElementById('notice');
  const reason = notices[params.get('reason')];
  if (reason) showAlert(notice, reason[0], reason[1]);

  // keep "next" when moving between the two pages
  for (const link of document.querySelectorAll('#to-signup, #to-login')) {
    if (params.get('next')) link.search = '?' + new URLSearchParams({ next: destination() });
  }

  const login = document.getElementById('login-form');
  const signup = document.getElementById('signup-form');
  const form = login || signup;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const data = new FormData(form);
    const body = { email: String(data.get('email') || ''), password: String(data.get('password') || '') };
    if (signup) {
      const organization = String(data.get('organization_name') || '').trim();
      if (organization) body.organization_name = organization;
    }
    const submit = form.querySelector('button[type="submit"]');
    const signedIn = await busy(submit, login ? 'Logging in…' : 'Creating account…', async () => {
      try {
        const answer = await api('POST', login ? '/api/v1/auth/login' : '/api/v1/auth/signup', body, { expectUnauthenticated: true });
        if (answer && answer.mfa_required) {
          secondStep(login);
          return false;
        }
        return true;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        withWaitText(error);
        showErrors(form, error, { email_taken: 'email' });
        return false;
      }
    });
    if (signedIn) location.replace(destination());
  });

  // already signed in: nothing to do here
  try {
    await api('GET', '/api/v1/session', undefined, { expectUnauthenticated: true });
    location.replace(destination());
  } catch (error) {
    // not signed in (401) or the service is unreachable: stay on this page
  }
}

/** Two-step login: the password was right, the authenticator's code (or a recovery code) is due. */
function secondStep(login) {
  const form = document.getElementById('totp-form');
  login.hidden = true;
  form.hidden = false;
  document.getElementById('code').focus();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const value = String(new FormData(form).get('code') || '').trim();
    const body = /^\d{6}$/.test(value) ? { code: value } : { recovery_code: value };
    const done = await busy(document.getElementById('totp-submit'), 'Verifying…', async () => {
      try {
        await api('POST', '/api/v1/auth/login/totp', body, { expectUnauthenticated: true });
        return true;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.code === 'unauthenticated' || error.code === 'too_many_attempts') {
          // the intermediate session is over, or every code is refused for a while: start again with the password
          withWaitText(error);
          form.hidden = true;
          login.hidden = false;
          showErrors(login, error);
        } else {
          showErrors(form, error, { invalid_code: 'code' });
        }
        return false;
      }
    });
    if (done) location.replace(destination());
  });
}

/** A lock's message says how long to wait, as a person says it. */
function withWaitText(error) {
  if (error.code === 'too_many_attempts' && error.retryAfter) {
    error.message = error.message + ' Try again in ' + waitText(error.retryAfter) + '.';
  }
}

function waitText(retryAfter) {
  const seconds = Number(retryAfter);
  if (!Number.isFinite(seconds)) return 'a moment';
  return seconds < 90 ? Math.max(1, Math.ceil(seconds)) + ' seconds' : Math.ceil(seconds / 60) + ' minutes';
}

main();
